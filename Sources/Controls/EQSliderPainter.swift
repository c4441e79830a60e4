import Knob

/// Draws a LARSBar EQ slider into an image exactly the control's bounds
/// (`W × H` points × scale pixels, origin top-left), as CONTROLS.md §1 says:
/// the body colour, the groove, each row's lights from the highest index to
/// the lowest (so lower indices end on top where cells overlap), each light
/// clipped to its cell and drawn dot, shadowed lit fill, outline, glow; the
/// thumb last.
///
/// The thumb is this project's MTZ knob (brushed base, two shines from a
/// tilt state), the original's small size: a 16 pt knob in a 20 pt frame,
/// about as wide as LARSBar's 20.5 pt cap; centred on the slider's middle.
/// Like UIKit's thumb it stays inside the bounds, its centre running from
/// 10 pt to W − 10 pt as the value's fraction goes from 0 to 1.
public struct EQSliderPainter: Sendable {
    public let layout: EQSliderLayout
    /// Device pixels per point, 1…3.
    public let scale: Int
    public let style: EQSliderStyle
    /// The thumb's layers, painted once for this scale.
    private let knob: KnobCompositor
    /// The body and the groove, painted once: every image starts as a copy
    /// (the same bytes as painting them first, without the cost per frame).
    private let background: RGBAImage

    /// The groove's height in points (the demo's 6.5 pt dark groove).
    public static let grooveHeightPoints = 6.5
    /// The thumb's knob diameter in points (MTZ's small knob).
    public static let thumbKnobPoints = 16
    /// The thumb frame's side in points: the knob plus its shadow margin.
    public static let thumbFramePoints = 20.0
    /// The smallest slider: the thumb's width, and the two rows' height.
    public static let minimumWidthPoints = 20.0, minimumHeightPoints = 28.0
    /// Scales the painter supports.
    public static let supportedScales = 1...3

    /// - Parameters:
    ///   - layout: the slider's size and lights; at least 20 pt wide (the
    ///     thumb) and 28 pt tall (the rows).
    ///   - scale: device pixels per point, 1…3.
    ///   - style: colours.
    public init(layout: EQSliderLayout, scale: Int, style: EQSliderStyle = .original) {
        precondition(Self.supportedScales.contains(scale), "scale \(scale) is outside 1…3")
        precondition(layout.widthPoints >= Self.minimumWidthPoints && layout.heightPoints >= Self.minimumHeightPoints,
                     "a LARSBar slider must be at least 20 pt wide and 28 pt tall")
        self.layout = layout
        self.scale = scale
        self.style = style
        knob = KnobCompositor(geometry: KnobGeometry(knobPoints: Self.thumbKnobPoints, scale: scale))
        var canvas = ControlCanvas(widthPoints: layout.widthPoints, heightPoints: layout.heightPoints, scale: scale)
        canvas.fillAll(style.body)
        Self.paintGroove(&canvas, layout: layout, scale: scale, colour: style.groove)
        background = canvas.image
    }

    /// The thumb centre's x in points for a model.
    public func thumbCentreX(_ model: EQSliderModel) -> Double {
        let half = Self.thumbFramePoints / 2
        return half + model.fraction * (layout.widthPoints - Self.thumbFramePoints)
    }

    /// The slider as `model`, `levels` and the thumb's `shines` show it.
    /// - Parameters:
    ///   - model: value and levels (which lights are active).
    ///   - levels: every light's displayed σ (from `EQLightAnimator`).
    ///   - shines: the thumb's shines (`ShinePair(roll:pitch:)` for a tilt).
    ///   - light: the colour of the light the thumb's shines reflect.
    /// - Returns: `W·s × H·s` pixels, premultiplied RGBA, opaque.
    public func paint(_ model: EQSliderModel, levels: EQLightLevels, shines: ShinePair,
                      light: LightColour = .white) -> RGBAImage {
        let s = Double(scale)
        var canvas = ControlCanvas(widthPoints: layout.widthPoints, heightPoints: layout.heightPoints, scale: scale)
        canvas.image = background
        let n = layout.lightCount
        for channel in EQChannel.allCases {
            let row = levels.row(channel)
            precondition(row.count == n, "levels for \(n) lights expected, got \(row.count)")
            for i in stride(from: n - 1, through: 0, by: -1) {
                paintLight(&canvas, index: i, channel: channel,
                           active: model.isActive(i, lightCount: n), sigma: row[i])
            }
        }
        var thumb = knob.makeFrame()
        knob.compose(shines, light: light, into: &thumb)
        let half = Self.thumbFramePoints / 2
        canvas.composite(thumb, x: Int(((thumbCentreX(model) - half) * s).rounded()),
                         y: Int(((layout.heightPoints / 2 - half) * s).rounded()))
        return canvas.image
    }

    /// The slider showing `model` with every light settled (σ 1 lit, 0 dark).
    public func paintSettled(_ model: EQSliderModel, shines: ShinePair, light: LightColour = .white) -> RGBAImage {
        let animator = EQLightAnimator(lightCount: layout.lightCount, settledOn: model)
        return paint(model, levels: animator.levels(atSeconds: 0), shines: shines, light: light)
    }

    /// A capsule across the whole width, centred on the slider's middle.
    private static func paintGroove(_ canvas: inout ControlCanvas, layout: EQSliderLayout, scale: Int,
                                    colour: RGBAColour) {
        let s = Double(scale)
        let radius = Self.grooveHeightPoints / 2 * s
        let midY = layout.heightPoints / 2 * s
        let left = radius, right = layout.widthPoints * s - radius
        let box = ControlCanvas.Rect(x0: 0, y0: midY - radius, x1: layout.widthPoints * s, y1: midY + radius)
        canvas.fill(colour, in: box) { x, y in
            let dx = x - min(max(x, left), right), dy = y - midY
            return dx * dx + dy * dy <= radius * radius
        }
    }

    /// One light, clipped to its cell, in CONTROLS.md §1's order.
    func paintLight(_ canvas: inout ControlCanvas, index: Int, channel: EQChannel, active: Bool, sigma: Double) {
        let s = Double(scale)
        let x0 = layout.cellMinX(index) * s, y0 = layout.cellMinY(channel) * s
        let cell = ControlCanvas.Rect(x0: x0, y0: y0, x1: x0 + EQSliderLayout.cellWidthPoints * s,
                                      y1: y0 + EQSliderLayout.cellHeightPoints * s)
        let cx = x0 + EQSliderLayout.dotCentreInCell.x * s, cy = y0 + EQSliderLayout.dotCentreInCell.y * s
        let r = EQSliderLayout.dotRadiusPoints * s
        let colour = style.sections[layout.section(index, sections: style.sections.count)]
        let level = sigma.isNaN ? 0 : min(1, max(0, sigma))
        // 1. The resting dot; active or not switches instantly.
        canvas.fillCircle(active ? style.activeResting : style.inactiveResting, centreX: cx, centreY: cy,
                          radius: r, clip: cell)
        // 2. The lit fill at alpha σ over its hard shadow one device pixel down.
        if level > 0 {
            canvas.fillCircle(style.shadow.fading(level), centreX: cx, centreY: cy + 1, radius: r, clip: cell)
            canvas.fillCircle(colour.fading(level), centreX: cx, centreY: cy, radius: r, clip: cell)
        }
        // 3. The outline, one device pixel wide.
        canvas.strokeCircle(style.outline, centreX: cx, centreY: cy, radius: r, width: 1, clip: cell)
        // 4. The glow: 0.2σ of the colour out to half its radius, then fading.
        if level > 0.5 {
            let gx = x0 + EQSliderLayout.dotCentreInCell.x * s
            let gy = y0 + (6 - (1 - 1 / s)) * s
            let outer = 6 * level * s
            canvas.shade(in: ControlCanvas.Rect(centreX: gx, centreY: gy, radius: outer), clip: cell) { x, y in
                let d = ((x - gx) * (x - gx) + (y - gy) * (y - gy)).squareRoot() / outer
                guard d < 1 else { return nil }
                return colour.fading(0.2 * level * (d <= 0.5 ? 1 : (1 - d) * 2))
            }
        }
    }
}
