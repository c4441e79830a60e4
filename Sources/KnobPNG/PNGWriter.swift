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
        let temporary = temporaryPath(for: path)
        if let reason = LibPNG.writeFile(image.straightAlphaBytes(), width: image.width,
                                         height: image.height, fast: fast, path: temporary) {
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
