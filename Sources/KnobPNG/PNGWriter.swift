import Glibc
import Knob

/// Writes `RGBAImage`s as 8-bit RGBA PNG through libpng's simplified write
/// API (`png_image_write_to_file`, `png_image_write_to_memory`), converting
/// premultiplied to straight alpha on the way.
public enum PNGWriter {
    /// Writes `image` to a PNG file, replacing it whole: libpng writes a
    /// hidden temporary file beside it (`.NAME.tmp-PID`), which is then
    /// renamed over `path`, so a reader, a crash or a signal never sees a
    /// truncated PNG under the real name. A path that exists and is not a
    /// regular file (`/dev/null`, a FIFO) is written in place instead: a
    /// rename would replace the device node itself.
    /// - Parameters:
    ///   - image: premultiplied pixels.
    ///   - path: the file to write.
    ///   - fast: favour speed over size (libpng's `PNG_IMAGE_FLAG_FAST`);
    ///     the pixels are the same either way.
    /// - Throws: `PNGError` naming the path when libpng fails.
    ///   The corresponding C function is `png_image_write_to_file`.
    public static func write(_ image: RGBAImage, to path: String, fast: Bool = true) throws {
        if !isReplaceable(path) {
            if let reason = LibPNG.writeFile(image.straightAlphaBytes(), width: image.width,
                                             height: image.height, fast: fast, path: path) {
                throw PNGError(operation: "write", target: path, reason: reason)
            }
            return
        }
        let bytes = try encode(image, fast: fast)
        let (fd, temporary) = try createTemporary(for: path)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw PNGError(operation: "write", target: path, reason: reason)
            }
            written += n
        }
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PNGError(operation: "write", target: path, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PNGError(operation: "write", target: path, reason: reason)
        }
    }

    /// True when `path` may be replaced by renaming a temporary file over
    /// it: it does not exist yet, or it is a regular file (or a link to
    /// one). Device nodes, FIFOs and sockets are written in place.
    public static func isReplaceable(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The hidden temporary name `write` uses for `path`: same directory
    /// (so the rename is atomic), a leading dot (so `frame-*.png` globs do
    /// not match it) and the process id (so two writers do not collide).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + ".tmp-" + String(getpid())
    }

    /// Creates the hidden temporary file beside `path` that is renamed over
    /// it once written: `temporaryPath(for:)`, or that name with `-1`, `-2`…
    /// when it is taken. Created exclusively (`O_EXCL`) and never through a
    /// symbolic link (`O_NOFOLLOW`): in a directory others can write (/tmp),
    /// a link planted at the predictable name cannot make tiltd write
    /// another file.
    /// - Returns: the open descriptor (write-only, close-on-exec) and its path.
    /// - Throws: `PNGError` naming `path`.
    public static func createTemporary(for path: String) throws -> (descriptor: Int32, path: String) {
        let base = temporaryPath(for: path)
        for attempt in 0..<100 {
            let candidate = attempt == 0 ? base : base + "-" + String(attempt)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, candidate) }
            guard errno == EEXIST || errno == ELOOP else {
                throw PNGError(operation: "create a temporary file for", target: path,
                               reason: String(cString: strerror(errno)))
            }
        }
        throw PNGError(operation: "create a temporary file for", target: path,
                       reason: "100 temporary names beside it are taken; remove the stale .*.tmp-* files")
    }

    /// The PNG file bytes of `image`.
    /// - Parameters:
    ///   - image: premultiplied pixels.
    ///   - fast: favour speed over size; the pixels are the same either way.
    /// - Returns: a complete PNG file.
    /// - Throws: `PNGError` when libpng fails.
    ///   The corresponding C function is `png_image_write_to_memory`.
    public static func encode(_ image: RGBAImage, fast: Bool = true) throws -> [UInt8] {
        try LibPNG.writeMemory(image.straightAlphaBytes(), width: image.width,
                               height: image.height, fast: fast).get()
    }
}
