import Foundation

extension PNGWriter {
    /// Writes `image` to `path` whole: into a temporary file beside it, then
    /// renamed over `path`, so a reader (or a crash) never sees half a PNG and
    /// an existing file is replaced only by a complete one.
    /// - Parameters:
    ///   - image: premultiplied pixels.
    ///   - path: the file to create or replace.
    /// - Throws: `PNGError` naming the path when writing or renaming fails;
    ///   the temporary file is removed then.
    ///   The corresponding C function is `rename`.
    public static func writeWhole(_ image: RGBAImage, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        do {
            try write(image, to: temporary, fast: false)
        } catch let error as PNGError {
            unlink(temporary)
            throw PNGError(operation: "write", target: path, reason: error.reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PNGError(operation: "write", target: path, reason: reason)
        }
    }
}
