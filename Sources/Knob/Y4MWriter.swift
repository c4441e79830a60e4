/// Encodes frames as a YUV4MPEG2 stream (the format `ffmpeg -i -` and
/// `mpv` read from a pipe): 8-bit 4:2:0, BT.601 limited range, chroma sited
/// at the centre of each 2×2 block (`C420jpeg`, stated in the header, with
/// ffmpeg's `XYSCSS=420JPEG` and `XCOLORRANGE=LIMITED`), square pixels,
/// progressive.
///
/// Frames are premultiplied RGBA; each is composited over the opaque
/// `background` first (`out = src + bg · (1 − a)`), since YUV has no alpha.
/// Odd widths or heights round the chroma planes up.
public struct Y4MWriter: Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    public let background: RGBA8

    public init(width: Int, height: Int, framesPerSecond: Int = 60, background: RGBA8 = .referenceBackground) {
        precondition(width > 0 && height > 0 && framesPerSecond > 0, "y4m needs a positive size and frame rate")
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.background = background
    }

    /// Chroma plane size.
    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    /// The stream header, newline included.
    public var header: [UInt8] {
        Array("YUV4MPEG2 W\(width) H\(height) F\(framesPerSecond):1 Ip A1:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\n".utf8)
    }

    /// Bytes of one frame: `FRAME\n`, the Y plane, then Cb and Cr.
    public var frameByteCount: Int { 6 + width * height + 2 * chromaWidth * chromaHeight }

    /// Appends one frame (`FRAME\n` and its planes) to `out`.
    /// - Parameter image: premultiplied RGBA, `width × height`.
    public func appendFrame(_ image: RGBAImage, to out: inout [UInt8]) {
        precondition(image.width == width && image.height == height,
                     "y4m frame must be \(width)×\(height), got \(image.width)×\(image.height)")
        let start = out.count
        out.append(contentsOf: [0x46, 0x52, 0x41, 0x4D, 0x45, 0x0A])  // "FRAME\n"
        out.append(contentsOf: repeatElement(0, count: frameByteCount - 6))
        let cw = chromaWidth, ch = chromaHeight
        let bgR = Int32(background.r), bgG = Int32(background.g), bgB = Int32(background.b)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let yPlane = dst.baseAddress! + start + 6
                let cbPlane = yPlane + width * height
                let crPlane = cbPlane + cw * ch
                // Over the background: round(bg · (255 − a) / 255) with the
                // exact shift form of a division by 255 on 0…65025.
                @inline(__always) func over(_ s: UInt8, _ bg: Int32, _ k: Int32) -> Int32 {
                    let t = bg &* k &+ 128
                    return Int32(s) &+ ((t &+ (t &>> 8)) &>> 8)
                }
                for cy in 0..<ch {
                    for cx in 0..<cw {
                        var sumR: Int32 = 0, sumG: Int32 = 0, sumB: Int32 = 0, count: Int32 = 0
                        for dy in 0..<2 {
                            let y = cy * 2 + dy
                            guard y < height else { continue }
                            for dx in 0..<2 {
                                let x = cx * 2 + dx
                                guard x < width else { continue }
                                let p = (y * width + x) * 4
                                let k = 255 &- Int32(src[p + 3])
                                let r = over(src[p], bgR, k), g = over(src[p + 1], bgG, k), b = over(src[p + 2], bgB, k)
                                // BT.601 limited range, 8-bit integer form.
                                yPlane[y * width + x] = UInt8(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
                                sumR &+= r; sumG &+= g; sumB &+= b; count &+= 1
                            }
                        }
                        // Chroma of the block's mean colour (centre siting).
                        let r = (sumR + count / 2) / count, g = (sumG + count / 2) / count, b = (sumB + count / 2) / count
                        cbPlane[cy * cw + cx] = UInt8(truncatingIfNeeded: ((-38 &* r &- 74 &* g &+ 112 &* b &+ 128) &>> 8) &+ 128)
                        crPlane[cy * cw + cx] = UInt8(truncatingIfNeeded: ((112 &* r &- 94 &* g &- 18 &* b &+ 128) &>> 8) &+ 128)
                    }
                }
            }
        }
    }
}
