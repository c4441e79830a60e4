import Glibc

/// Replaces files whole, the one way tiltd writes a file others read: the
/// bytes go to a hidden temporary file beside it (`.NAME.tmp-PID`), which
/// is then renamed over the real name, so a reader, a crash or a signal
/// never sees a truncated file under it. PNG images, WAV tones and `render`'s
/// y4m stream are written this way.
public enum FileReplacement {
    /// Why a file could not be replaced.
    public struct Failure: Error, Sendable, Equatable {
        /// "create a temporary file for" or "write".
        public let operation: String
        /// The system's reason (`strerror`), or what to remove.
        public let reason: String
    }

    /// True unless `path` exists and is not a regular file: a device or a
    /// FIFO (`/dev/null`, a player's pipe) is written in place, never
    /// renamed over.
    public static func isReplaceable(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return true }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The hidden temporary name for `path`: same directory (so the rename
    /// is atomic), a leading dot (so `frame-*.png` globs do not match it)
    /// and the process id (so two writers do not collide).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + ".tmp-" + String(getpid())
    }

    /// Creates the temporary file that is renamed over `path` once written:
    /// `temporaryPath(for:)`, or that name with `-1`, `-2`… when it is taken.
    /// Created exclusively (`O_EXCL`) and never through a symbolic link
    /// (`O_NOFOLLOW`): in a directory others can write (/tmp), a link planted
    /// at the predictable name cannot make tiltd write another file.
    /// - Returns: the open descriptor (write-only, close-on-exec) and its path.
    public static func createTemporary(for path: String) throws(Failure) -> (descriptor: Int32, path: String) {
        let base = temporaryPath(for: path)
        for attempt in 0..<100 {
            let candidate = attempt == 0 ? base : base + "-" + String(attempt)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, candidate) }
            guard errno == EEXIST || errno == ELOOP else {
                throw Failure(operation: "create a temporary file for", reason: String(cString: strerror(errno)))
            }
        }
        throw Failure(operation: "create a temporary file for",
                      reason: "100 temporary names beside it are taken; remove the stale .*.tmp-* files")
    }

    /// Renames the written (and closed) `temporary` over `path`; on failure
    /// the temporary file is removed.
    public static func commit(_ temporary: String, as path: String) throws(Failure) {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(operation: "write", reason: reason)
        }
    }

    /// Writes `bytes` as the whole new content of `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let (fd, temporary) = try createTemporary(for: path)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw Failure(operation: "write", reason: reason)
            }
            written += n
        }
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(operation: "write", reason: reason)
        }
        try commit(temporary, as: path)
    }
}
