/// An 8-bit RGBA raster with premultiplied alpha.
///
/// Layout: `width × height` pixels, row-major from the top-left corner, no
/// row padding (the stride is `width × 4` bytes), each pixel four bytes in the
/// order R, G, B, A. Colour channels are premultiplied by alpha
/// (`c ≤ a` always holds), because compositing one premultiplied layer over
/// another is a multiply-add per channel with no division. `PNGWriter`
/// converts to straight alpha on the way out and `PNGReader` back on the way in.
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes, premultiplied RGBA, rows from the top.
    public var pixels: [UInt8]

    /// A fully transparent image.
    /// - Parameters:
    ///   - width: width in pixels, at least 1.
    ///   - height: height in pixels, at least 1.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "RGBAImage needs a positive size, got \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// An image over existing premultiplied RGBA bytes.
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - pixels: exactly `width × height × 4` bytes, premultiplied RGBA.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "RGBAImage needs a positive size, got \(width)×\(height)")
        precondition(pixels.count == width * height * 4,
                     "RGBAImage \(width)×\(height) needs \(width * height * 4) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes from one row to the next.
    public var bytesPerRow: Int { width * 4 }

    /// The premultiplied pixel at column `x`, row `y` (from the top-left).
    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let i = (y * width + x) * 4
            return RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// An opaque image of one colour.
    public static func filled(width: Int, height: Int, with colour: RGBA8) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                p[i] = colour.r; p[i + 1] = colour.g; p[i + 2] = colour.b; p[i + 3] = colour.a
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The same pixels with straight (non-premultiplied) alpha, as PNG stores
    /// them: `c = round(c_premultiplied × 255 / a)`, 0 where `a = 0`.
    ///
    /// Re-premultiplying the result gives back exactly these bytes: the
    /// rounding error of the division is below half a step once multiplied by
    /// `a / 255`.
    public func straightAlphaBytes() -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                if a == 0 { p[i] = 0; p[i + 1] = 0; p[i + 2] = 0; continue }
                for c in 0..<3 {
                    p[i + c] = UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a))
                }
            }
        }
        return out
    }

    /// An image from straight-alpha RGBA bytes (as decoded from a PNG),
    /// premultiplied with `c = round(c_straight × a / 255)`.
    public static func premultiplying(width: Int, height: Int, straight: [UInt8]) -> RGBAImage {
        var out = straight
        out.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 {
                    p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}
