import Motion

/// The whole slider at a value: a capsule track, filled (light) left of the
/// knob and empty (dark) right of it, with the knob drawn over it, as in the
/// original's screenshot (reference/mtz/example-sliders.png).
///
/// The image is `width × frameSize`: the knob frame slides from the left
/// edge (value 0) to the right edge (value 1), and the track runs between
/// the knob centre's extremes, capped with half-circles. The track is
/// 10 pt tall (SPEC §1) with the original's rows: measured at @2x, a grey
/// top edge (46), a black line, then a vertical gradient (filled: 255 down
/// to 213 and back up to 250; empty: 6 up to 22), a dark line (24) and a
/// light bottom edge (99). Both tracks are painted once; a frame copies the
/// filled one left of the knob centre and the empty one right of it, then
/// draws the knob frame over them.
public struct SliderRenderer: Sendable {
    public let width: Int
    public let geometry: KnobGeometry
    private var knob: KnobRenderer
    private let filledTrack: RGBAImage
    private let emptyTrack: RGBAImage
    private var knobFrame: RGBAImage

    /// The original's track rows at @2x, top to bottom (grey levels).
    static let filledRows: [Double] = [45, 4, 255, 255, 255, 254, 249, 245, 241, 237, 234, 225, 222, 218, 213, 224, 235, 249, 24, 99]
    static let emptyRows: [Double] = [47, 4, 6, 8, 9, 10, 11, 12, 13, 14, 14, 16, 17, 18, 19, 20, 20, 22, 23, 99]

    /// - Parameters:
    ///   - width: slider width in pixels, at least the frame size.
    ///   - frameSize: knob frame size in pixels (16…1024), also the height.
    ///   - style: how the knob is drawn.
    public init(width: Int, frameSize: Int, style: KnobStyle = .mtz) {
        precondition(width >= frameSize, "a slider must be at least as wide as its knob frame")
        self.width = width
        knob = KnobRenderer(size: frameSize, style: style)
        geometry = knob.geometry
        filledTrack = Self.paintTrack(width: width, geometry: geometry, rows: Self.filledRows)
        emptyTrack = Self.paintTrack(width: width, geometry: geometry, rows: Self.emptyRows)
        knobFrame = knob.makeFrame()
    }

    /// A transparent image of the slider's size.
    public func makeFrame() -> RGBAImage {
        RGBAImage(width: width, height: geometry.frameSize)
    }

    /// Knob centre in pixels from the left for a value in [0, 1].
    public func knobCentreX(_ value: Double) -> Double {
        let v = value.isNaN ? 0 : min(1, max(0, value))
        return geometry.centre.x + v * Double(width - geometry.frameSize)
    }

    static func paintTrack(width: Int, geometry: KnobGeometry, rows: [Double]) -> RGBAImage {
        let n = geometry.frameSize
        let height = 10 * geometry.pixelsPerPoint
        let top = geometry.centre.y - height / 2
        let radius = height / 2
        let left = geometry.centre.x, right = Double(width) - geometry.centre.x
        var image = RGBAImage(width: width, height: n)
        let s = 4
        for y in 0..<n {
            for x in 0..<width {
                var coverage = 0.0, grey = 0.0
                for j in 0..<s {
                    let py = Double(y) + (Double(j) + 0.5) / Double(s)
                    let row = (py - top) / height
                    guard row >= 0, row < 1 else { continue }
                    let g = rows[min(rows.count - 1, Int(row * Double(rows.count)))]
                    for i in 0..<s {
                        let px = Double(x) + (Double(i) + 0.5) / Double(s)
                        // Capsule: the straight part, or within a cap's circle.
                        let cx = min(max(px, left), right)
                        let dx = px - cx, dy = py - (top + radius)
                        if dx * dx + dy * dy <= radius * radius || (px >= left && px <= right) {
                            coverage += 1
                            grey += g
                        }
                    }
                }
                guard coverage > 0 else { continue }
                let a = coverage / Double(s * s)
                let v = UInt8((grey / coverage * a).rounded())
                image[x, y] = RGBA8(r: v, g: v, b: v, a: UInt8((a * 255).rounded()))
            }
        }
        return image
    }

    /// Draws the slider at `value` (0…1) with the knob showing `shines`
    /// (MTZ style) or `tilt` (TLTilt style), its shines in the colour of
    /// `light` (MTZ style). Overwrites every pixel.
    public mutating func render(value: Double, shines: ShinePair, tilt: TiltState, light: LightColour = .white,
                                into frame: inout RGBAImage) {
        precondition(frame.width == width && frame.height == geometry.frameSize, "slider frame must be \(width)×\(geometry.frameSize)")
        let split = Int(knobCentreX(value).rounded())
        let rowBytes = width * 4
        for y in 0..<geometry.frameSize {
            let row = y * rowBytes
            frame.pixels.replaceSubrange(row..<(row + split * 4), with: filledTrack.pixels[row..<(row + split * 4)])
            frame.pixels.replaceSubrange((row + split * 4)..<(row + rowBytes),
                                         with: emptyTrack.pixels[(row + split * 4)..<(row + rowBytes)])
        }
        knob.render(shines: shines, tilt: tilt, light: light, into: &knobFrame)
        // The knob frame over the track, premultiplied "over".
        frame.composite(knobFrame, x: Int((knobCentreX(value) - geometry.centre.x).rounded()), y: 0)
    }
}
