import CPNG

/// Every raw call into libpng's simplified API (libpng 1.6 `png_image`), in
/// one place; `PNGWriter` and `PNGReader` build typed errors on top.
///
/// The simplified API reads and writes 8-bit sRGB RGBA with straight
/// (non-premultiplied) alpha.
enum LibPNG {
    /// A fresh `png_image` for 8-bit straight-alpha RGBA.
    static func makeImage(width: Int = 0, height: Int = 0) -> png_image {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        return image
    }

    /// libpng's own message for the last failure on `image`.
    static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// `png_image_write_to_file`; nil on success, libpng's message on failure.
    static func writeFile(_ straight: [UInt8], width: Int, height: Int, fast: Bool, path: String) -> String? {
        var image = makeImage(width: width, height: height)
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        let ok = straight.withUnsafeBytes { raw in
            png_image_write_to_file(&image, path, 0, raw.baseAddress, Int32(width * 4), nil)
        }
        defer { png_image_free(&image) }
        return ok != 0 ? nil : message(&image)
    }

    /// `png_image_write_to_memory`, growing the buffer once if libpng says
    /// the first guess was too small.
    static func writeMemory(_ straight: [UInt8], width: Int, height: Int, fast: Bool) -> Result<[UInt8], PNGError> {
        // A first guess that fits nearly every knob frame: half the raw size
        // plus headers (the shadow margin and flat areas compress well).
        var capacity = straight.count / 2 + 4096
        for _ in 0..<2 {
            var image = makeImage(width: width, height: height)
            if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
            var out = [UInt8](repeating: 0, count: capacity)
            var bytes = capacity
            let ok = out.withUnsafeMutableBytes { dst in
                straight.withUnsafeBytes { src in
                    png_image_write_to_memory(&image, dst.baseAddress, &bytes, 0, src.baseAddress, Int32(width * 4), nil)
                }
            }
            let failed = image.warning_or_error & 3 != 0 ? message(&image) : nil
            png_image_free(&image)
            if ok != 0 {
                out.removeSubrange(bytes...)
                return .success(out)
            }
            if let failed { return .failure(PNGError(operation: "encode", target: "memory", reason: failed)) }
            // Too small: libpng has put the size it needs in `bytes`.
            capacity = max(bytes, capacity * 2)
        }
        return .failure(PNGError(operation: "encode", target: "memory", reason: "buffer kept growing"))
    }

    /// Reads a PNG file or buffer as 8-bit straight-alpha RGBA.
    static func read(file path: String?, memory: [UInt8]?) -> Result<(width: Int, height: Int, bytes: [UInt8]), PNGError> {
        var image = makeImage()
        let begun: Int32
        if let path {
            begun = png_image_begin_read_from_file(&image, path)
        } else {
            begun = memory!.withUnsafeBytes { raw in
                png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
            }
        }
        let target = path ?? "memory"
        guard begun != 0 else {
            let reason = message(&image)
            png_image_free(&image)
            return .failure(PNGError(operation: "read", target: target, reason: reason))
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let width = Int(image.width), height = Int(image.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let ok = bytes.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, Int32(width * 4), nil)
        }
        defer { png_image_free(&image) }
        guard ok != 0 else {
            return .failure(PNGError(operation: "read", target: target, reason: message(&image)))
        }
        return .success((width, height, bytes))
    }
}
