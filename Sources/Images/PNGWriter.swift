import Knob
import Platform

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
        if !FileReplacement.isReplaceable(path) {
            if let reason = LibPNG.writeFile(image.straightAlphaBytes(), width: image.width,
                                             height: image.height, fast: fast, path: path) {
                throw PNGError(operation: "write", target: path, reason: reason)
            }
            return
        }
        let bytes = try encode(image, fast: fast)
        // The temporary name is tiltd's own business: the message names the file asked for.
        do { try FileReplacement.write(bytes, to: path) } catch {
            throw PNGError(operation: "write", target: path, reason: error.reason)
        }
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
