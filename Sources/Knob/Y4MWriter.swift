/// Encodes frames as a YUV4MPEG2 stream (the format `ffmpeg -i -` and
/// `mpv` read from a pipe): 8-bit 4:2:0, BT.601 limited range, chroma sited
/// at the centre of each 2×2 block (`C420jpeg`, stated in the header, with
/// ffmpeg's `XYSCSS=420JPEG` and `XCOLORRANGE=LIMITED`), square pixels,
/// progressive.
///
/// Frames are premultiplied RGBA; each is composited over the opaque
/// `background` first (`out = src + bg · (1 − a)`), since YUV has no alpha.
/// Odd widths or heights round the chroma planes up.
///
/// Consecutive knob frames differ only where the shines are, so the writer
/// keeps the previous frame and its planes and reconverts only the 8×2
/// pixel blocks whose source bytes changed, copying the rest: the output is
/// byte for byte what converting every pixel gives (tested).
public struct Y4MWriter: Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    public let background: RGBA8
    /// The last frame's source pixels and Y, Cb, Cr planes.
    private var previousSource: [UInt8] = []
    private var previousPlanes: [UInt8] = []

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

    /// The background's share of a premultiplied pixel with alpha `a`
    /// composited over it, `floor((bg · (255 − a) + 127) / 255)`, with the
    /// exact shift form of a division by 255 (exact up to 65 534).
    @inline(__always)
    static func share(_ bg: UInt32, alpha a: UInt32) -> UInt32 {
        let x = bg &* (255 &- a) &+ 127
        return (x &+ 1 &+ (x &>> 8)) &>> 8
    }

    /// BT.601 limited-range luma of 8-bit RGB, integer form.
    @inline(__always)
    static func luma(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
        ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16
    }

    /// BT.601 Cb and Cr: `((−38r − 74g + 112b + 128) >> 8) + 128` and
    /// `((112r − 94g − 18b + 128) >> 8) + 128`, written with the +128 folded
    /// in as 32768 so every intermediate stays non-negative in UInt32.
    @inline(__always)
    static func cb(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
        (112 &* b &+ 32896 &- 38 &* r &- 74 &* g) &>> 8
    }
    @inline(__always)
    static func cr(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 {
        (112 &* r &+ 32896 &- 94 &* g &- 18 &* b) &>> 8
    }

    /// Appends one frame (`FRAME\n` and its planes) to `out`.
    /// - Parameter image: premultiplied RGBA, `width × height`.
    public mutating func appendFrame(_ image: RGBAImage, to out: inout [UInt8]) {
        let start = out.count
        appendFrame(image, to: &out, vectorized: true)
        previousSource = image.pixels
        previousPlanes = Array(out[(start + 6)...])
    }

    /// `vectorized: false` is the plain per-pixel reference the SIMD and
    /// unchanged-block paths are tested against.
    func appendFrame(_ image: RGBAImage, to out: inout [UInt8], vectorized: Bool) {
        precondition(image.width == width && image.height == height,
                     "y4m frame must be \(width)×\(height), got \(image.width)×\(image.height)")
        let start = out.count
        out.append(contentsOf: [0x46, 0x52, 0x41, 0x4D, 0x45, 0x0A])  // "FRAME\n"
        out.append(contentsOf: repeatElement(0, count: frameByteCount - 6))
        let cw = chromaWidth, ch = chromaHeight, w = width, h = height
        let bgR = UInt32(background.r), bgG = UInt32(background.g), bgB = UInt32(background.b)
        // Blocks unchanged since the last frame keep its planes.
        let reuse = vectorized && previousSource.count == image.pixels.count
        image.pixels.withUnsafeBufferPointer { srcBuffer in
            previousSource.withUnsafeBufferPointer { previous in
                out.withUnsafeMutableBufferPointer { dst in
                    let src = srcBuffer.baseAddress!
                    if reuse {
                        previousPlanes.withUnsafeBufferPointer {
                            (dst.baseAddress! + start + 6).update(from: $0.baseAddress!, count: $0.count)
                        }
                    }
                    let yPlane = dst.baseAddress! + start + 6
                    let cbPlane = yPlane + w * h
                    let crPlane = cbPlane + cw * ch
                    // One pixel over the background, its luma written, its
                    // colour added to the block sums. The scalar reference.
                    @inline(__always) func pixel(_ x: Int, _ y: Int, _ sr: inout UInt32, _ sg: inout UInt32, _ sb: inout UInt32) {
                        let p = src + (y * w + x) * 4
                        let a = UInt32(p[3])
                        let r = UInt32(p[0]) &+ Self.share(bgR, alpha: a)
                        let g = UInt32(p[1]) &+ Self.share(bgG, alpha: a)
                        let b = UInt32(p[2]) &+ Self.share(bgB, alpha: a)
                        yPlane[y * w + x] = UInt8(truncatingIfNeeded: Self.luma(r, g, b))
                        sr &+= r; sg &+= g; sb &+= b
                    }
                    // Chroma of a block's mean colour (centre siting).
                    @inline(__always) func chroma(_ i: Int, _ r: UInt32, _ g: UInt32, _ b: UInt32) {
                        cbPlane[i] = UInt8(truncatingIfNeeded: Self.cb(r, g, b))
                        crPlane[i] = UInt8(truncatingIfNeeded: Self.cr(r, g, b))
                    }
                    for cy in 0..<ch {
                        let y0 = cy * 2, fullRows = y0 + 1 < h
                        var cx = 0
                        if fullRows, vectorized {
                            // Eight columns (four chroma blocks) of both rows at a time.
                            while cx * 2 + 8 <= w {
                                defer { cx += 4 }
                                if reuse, Self.unchanged(src, previous.baseAddress!, w: w, x: cx * 2, y: y0) { continue }
                                Self.eightColumns(src, w: w, x: cx * 2, y: y0, yPlane, cbPlane + cy * cw + cx,
                                                  crPlane + cy * cw + cx, bgR, bgG, bgB)
                            }
                        }
                        for cx in cx..<cw {
                            let x0 = cx * 2
                            var sr: UInt32 = 0, sg: UInt32 = 0, sb: UInt32 = 0
                            if fullRows, x0 + 1 < w {
                                pixel(x0, y0, &sr, &sg, &sb); pixel(x0 + 1, y0, &sr, &sg, &sb)
                                pixel(x0, y0 + 1, &sr, &sg, &sb); pixel(x0 + 1, y0 + 1, &sr, &sg, &sb)
                                chroma(cy * cw + cx, (sr &+ 2) &>> 2, (sg &+ 2) &>> 2, (sb &+ 2) &>> 2)
                            } else {
                                // A block cut by an odd width or height.
                                var count: UInt32 = 0
                                for y in y0..<min(y0 + 2, h) {
                                    for x in x0..<min(x0 + 2, w) { pixel(x, y, &sr, &sg, &sb); count += 1 }
                                }
                                chroma(cy * cw + cx, (sr + count / 2) / count, (sg + count / 2) / count, (sb + count / 2) / count)
                            }
                        }
                    }
                }
            }
        }
    }
}
