import Knob

/// The demo's view of a `ColourSliderGroup`: a 50 × 50 pt swatch of the
/// colour centred above the group's sliders (in the order R, G, B, A), each
/// a track of the slider width with its thumb, on white.
///
/// Layout in points, W the slider width: a 20 pt margin all round; the
/// swatch; then one 44 pt row per slider (UIKit's touch height), the track
/// centred in the row and the thumb's centre running from 14 pt to W − 14 pt
/// as the value goes from 0 to 1 (it stays inside the track's ends, as
/// UIKit's does). The image is `(W + 40) × (90 + 44 · rows)` points.
public struct ColourSlidersView: Sendable {
    public let widthPoints: Double
    public let scale: Int

    public static let marginPoints = 20.0, swatchPoints = 50.0, rowHeightPoints = 44.0
    public static let background = RGBAColour(red: 1, green: 1, blue: 1)

    /// - Parameters:
    ///   - widthPoints: each slider's width, at least the thumb's 28 pt.
    ///   - scale: device pixels per point, 1…3.
    public init(widthPoints: Double, scale: Int) {
        precondition(widthPoints >= ColourSliderPainter.thumbDiameterPoints, "a colour slider needs at least 28 pt")
        precondition(EQSliderPainter.supportedScales.contains(scale), "scale \(scale) is outside 1…3")
        self.widthPoints = widthPoints
        self.scale = scale
    }

    /// The image's size in points for `rows` sliders.
    public func sizePoints(rows: Int) -> SIMD2<Double> {
        SIMD2(widthPoints + 2 * Self.marginPoints,
              2 * Self.marginPoints + Self.swatchPoints + Self.rowHeightPoints * Double(rows))
    }

    /// The thumb centre's x in points from the slider's left for a value.
    public func thumbCentreX(_ value: Double) -> Double {
        let half = ColourSliderPainter.thumbDiameterPoints / 2
        return half + min(1, max(0, value)) * (widthPoints - 2 * half)
    }

    /// The group as the demo shows it.
    /// - Returns: premultiplied RGBA, opaque.
    public func paint(_ group: ColourSliderGroup) -> RGBAImage {
        let s = Double(scale), m = Self.marginPoints
        let rows = group.members.sorted()
        let size = sizePoints(rows: rows.count)
        var canvas = ControlCanvas(widthPoints: size.x, heightPoints: size.y, scale: scale)
        canvas.fillAll(Self.background)
        let swatchX = (size.x - Self.swatchPoints) / 2 * s
        canvas.fill(group.colour, in: ControlCanvas.Rect(x0: swatchX, y0: m * s, x1: swatchX + Self.swatchPoints * s,
                                                          y1: (m + Self.swatchPoints) * s)) { _, _ in true }
        for (row, component) in rows.enumerated() {
            let midY = m + Self.swatchPoints + Self.rowHeightPoints * (Double(row) + 0.5)
            let track = ColourSliderPainter.track(component, colour: group.colour, widthPoints: widthPoints, scale: scale)
            canvas.composite(track, x: Int((m * s).rounded()),
                             y: Int(((midY - ColourSliderPainter.trackHeightPoints / 2) * s).rounded()))
            ColourSliderPainter.paintThumb(&canvas, centreX: (m + thumbCentreX(group.value(component))) * s,
                                           centreY: midY * s)
        }
        return canvas.image
    }
}
