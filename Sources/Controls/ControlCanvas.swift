import Knob

/// A control's image being painted: an `RGBAImage` (premultiplied RGBA, rows
/// from the top-left) plus the scale from points to device pixels, and the
/// few antialiased operations the three controls need.
///
/// Shapes are given as tests on device-pixel coordinates (continuous, y
/// down: pixel `(x, y)` covers `[x, x+1) × [y, y+1)`) and sampled 4 × 4
/// times a pixel. Each operation is composited "over" what is there and
/// rounded to 8 bits, as Core Graphics draws one call after another. A
/// uniform paint is tallied per sample and multiplied by the covered
/// fraction, so a fully covered pixel is exactly the paint's colour (the
/// pixel checks of CONTROLS.md depend on that).
public struct ControlCanvas: Sendable {
    /// The pixels so far.
    public var image: RGBAImage
    /// Device pixels per point (1, 2 or 3).
    public let scale: Int

    /// A transparent canvas of `width × height` points at `scale`.
    public init(widthPoints: Double, heightPoints: Double, scale: Int) {
        self.scale = scale
        image = RGBAImage(width: Int((widthPoints * Double(scale)).rounded()),
                          height: Int((heightPoints * Double(scale)).rounded()))
    }

    /// Subsamples per pixel side.
    static let subsamples = 4

    /// An axis-aligned rectangle in device pixels, `[x0, x1) × [y0, y1)`.
    public struct Rect: Sendable, Equatable {
        public var x0, y0, x1, y1: Double
        public init(x0: Double, y0: Double, x1: Double, y1: Double) {
            self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        }
        /// The square around a circle.
        public init(centreX: Double, centreY: Double, radius: Double) {
            self.init(x0: centreX - radius, y0: centreY - radius, x1: centreX + radius, y1: centreY + radius)
        }
        func contains(_ x: Double, _ y: Double) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
        func intersection(_ other: Rect) -> Rect {
            Rect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        }
    }

    /// The whole canvas in device pixels.
    public var bounds: Rect { Rect(x0: 0, y0: 0, x1: Double(image.width), y1: Double(image.height)) }

    /// Composites premultiplied `source` (0…1) over pixel `(x, y)`.
    @inline(__always)
    mutating func blend(_ source: SIMD4<Double>, x: Int, y: Int) {
        guard source.w > 0 else { return }
        let i = (y * image.width + x) * 4
        let keep = 1 - source.w
        for c in 0..<4 {
            let v = source[c] * 255 + Double(image.pixels[i + c]) * keep
            image.pixels[i + c] = UInt8(min(255, max(0, v.rounded())))
        }
    }

    /// Visits every pixel touching `box` (clipped to the canvas) with its
    /// sample points that fall inside `clip`.
    @inline(__always)
    mutating func forEachPixel(_ box: Rect, clip: Rect?, _ body: (inout ControlCanvas, Int, Int, [SIMD2<Double>]) -> Void) {
        let area = box.intersection(clip ?? bounds).intersection(bounds)
        guard area.x0 < area.x1, area.y0 < area.y1 else { return }
        let s = Self.subsamples
        var samples: [SIMD2<Double>] = []
        samples.reserveCapacity(s * s)
        for y in Int(area.y0.rounded(.down))..<Int(area.y1.rounded(.up)) {
            for x in Int(area.x0.rounded(.down))..<Int(area.x1.rounded(.up)) {
                samples.removeAll(keepingCapacity: true)
                for j in 0..<s {
                    for i in 0..<s {
                        let p = SIMD2(Double(x) + (Double(i) + 0.5) / Double(s), Double(y) + (Double(j) + 0.5) / Double(s))
                        if area.contains(p.x, p.y) { samples.append(p) }
                    }
                }
                if !samples.isEmpty { body(&self, x, y, samples) }
            }
        }
    }

    /// Paints regions of uniform colour in one operation: `region` names the
    /// paint (an index into `paints`) at a sample point, or nil for none.
    /// Each pixel gets the sum of the paints weighted by the fraction of its
    /// samples they cover, composited over once.
    /// - Parameters:
    ///   - paints: the colours.
    ///   - box: where the regions may be, device pixels.
    ///   - clip: nothing outside this rectangle is touched.
    ///   - region: which paint covers a sample point (device pixels).
    public mutating func paint(_ paints: [RGBAColour], in box: Rect, clip: Rect? = nil,
                               region: (_ x: Double, _ y: Double) -> Int?) {
        let colours = paints.map(\.premultiplied)
        let total = Double(Self.subsamples * Self.subsamples)
        var counts = [Int](repeating: 0, count: paints.count)
        forEachPixel(box, clip: clip) { canvas, x, y, samples in
            for k in counts.indices { counts[k] = 0 }
            var any = false
            for p in samples {
                if let k = region(p.x, p.y) { counts[k] += 1; any = true }
            }
            guard any else { return }
            var source = SIMD4<Double>(repeating: 0)
            for k in counts.indices where counts[k] > 0 {
                source += colours[k] * (Double(counts[k]) / total)
            }
            canvas.blend(source, x: x, y: y)
        }
    }

    /// Paints one uniform colour where `inside` holds.
    public mutating func fill(_ colour: RGBAColour, in box: Rect, clip: Rect? = nil,
                              inside: (_ x: Double, _ y: Double) -> Bool) {
        paint([colour], in: box, clip: clip) { x, y in inside(x, y) ? 0 : nil }
    }

    /// Paints a colour that varies from sample to sample (a gradient):
    /// `shade` gives it at a sample point, nil where there is none; the
    /// pixel gets the mean of its samples' premultiplied colours.
    public mutating func shade(in box: Rect, clip: Rect? = nil, _ shade: (_ x: Double, _ y: Double) -> RGBAColour?) {
        let total = Double(Self.subsamples * Self.subsamples)
        forEachPixel(box, clip: clip) { canvas, x, y, samples in
            var sum = SIMD4<Double>(repeating: 0)
            for p in samples {
                if let colour = shade(p.x, p.y) { sum += colour.premultiplied }
            }
            canvas.blend(sum / total, x: x, y: y)
        }
    }

    /// Fills the whole canvas with a colour, over what is there.
    public mutating func fillAll(_ colour: RGBAColour) {
        // Every sample is covered, so this is `fill` without the sampling.
        let source = colour.premultiplied
        for y in 0..<image.height {
            for x in 0..<image.width { blend(source, x: x, y: y) }
        }
    }

    /// A disc of `radius` device pixels about `(centreX, centreY)`.
    public mutating func fillCircle(_ colour: RGBAColour, centreX: Double, centreY: Double, radius: Double,
                                    clip: Rect? = nil) {
        fill(colour, in: Rect(centreX: centreX, centreY: centreY, radius: radius), clip: clip) { x, y in
            let dx = x - centreX, dy = y - centreY
            return dx * dx + dy * dy <= radius * radius
        }
    }

    /// A circle's outline `width` device pixels wide, centred on the path of
    /// `radius` as Core Graphics strokes.
    public mutating func strokeCircle(_ colour: RGBAColour, centreX: Double, centreY: Double, radius: Double,
                                      width: Double, clip: Rect? = nil) {
        let inner = max(0, radius - width / 2), outer = radius + width / 2
        fill(colour, in: Rect(centreX: centreX, centreY: centreY, radius: outer), clip: clip) { x, y in
            let dx = x - centreX, dy = y - centreY
            let d2 = dx * dx + dy * dy
            return d2 >= inner * inner && d2 <= outer * outer
        }
    }

    /// Composites a premultiplied image over the canvas with its top-left
    /// corner at device pixel `(x, y)`; parts outside the canvas are dropped.
    public mutating func composite(_ layer: RGBAImage, x: Int, y: Int) {
        image.composite(layer, x: x, y: y)
    }
}
