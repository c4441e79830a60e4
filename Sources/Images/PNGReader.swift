import Knob

/// Reads PNG files (any colour type libpng handles) as premultiplied
/// `RGBAImage`s through libpng's simplified read API; for tests and golden
/// files.
public enum PNGReader {
    /// Decodes a PNG file.
    /// - Throws: `PNGError` naming the path.
    ///   The corresponding C functions are `png_image_begin_read_from_file`
    ///   and `png_image_finish_read`.
    public static func read(path: String) throws -> RGBAImage {
        let (w, h, bytes) = try LibPNG.read(file: path, memory: nil).get()
        return RGBAImage.premultiplying(width: w, height: h, straight: bytes)
    }

    /// Decodes PNG bytes held in memory.
    /// - Throws: `PNGError`.
    ///   The corresponding C function is `png_image_begin_read_from_memory`.
    public static func decode(_ data: [UInt8]) throws -> RGBAImage {
        let (w, h, bytes) = try LibPNG.read(file: nil, memory: data).get()
        return RGBAImage.premultiplying(width: w, height: h, straight: bytes)
    }
}
