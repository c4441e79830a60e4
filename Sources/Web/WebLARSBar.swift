import Controls
import Knob

/// The LARSBar volume slider on `tiltd serve`'s page (`Setting.levels`): its size,
/// whether dragging it sets a value (`Setting.controlVolume`), and the thumb's
/// layer images at every scale the page may draw at.
///
/// The page draws the slider on a canvas with the numbers of Controls'
/// `EQSliderLayout`, `EQSliderStyle`, `EQLightFade` and `EQSliderPainter`
/// (CONTROLS.md §1), so its pixels match the rasterizer's
/// (`WebPage.larsBarPart`); the thumb is this project's small knob, the
/// layers of `KnobLayers` at 16 pt.
public struct WebLARSBar: Sendable {
    /// The slider's size in points (CSS pixels).
    public var layout: EQSliderLayout
    /// Whether dragging the slider sends its value as input to the `volume`
    /// control (which the server must enable); otherwise it only shows.
    public var interactive: Bool
    /// The thumb's base and unrotated shine, by scale (1…3).
    public var thumbs: [Int: WebLayerImages]

    /// The name of the input control and channel the slider's value uses.
    public static let valueChannel = "volume"
    /// The channel the two levels come on (`{"t":…,"left":…,"right":…}`).
    public static let levelsChannel = "levels"

    /// The original's slider, 280 pt wide (40 lights a row), with thumb
    /// layers from the project's rasterizer.
    ///
    /// - Throws: `PNGError` when libpng cannot encode the layers.
    public static func render(widthPoints: Double = 280, interactive: Bool) throws -> WebLARSBar {
        var thumbs: [Int: WebLayerImages] = [:]
        for scale in EQSliderPainter.supportedScales {
            let geometry = KnobGeometry(knobPoints: EQSliderPainter.thumbKnobPoints, scale: scale)
            thumbs[scale] = try WebLayerImages(KnobLayers(geometry: geometry))
        }
        return WebLARSBar(layout: EQSliderLayout(widthPoints: widthPoints), interactive: interactive, thumbs: thumbs)
    }

    public init(layout: EQSliderLayout, interactive: Bool, thumbs: [Int: WebLayerImages]) {
        precondition(layout.widthPoints >= EQSliderPainter.minimumWidthPoints
                     && layout.heightPoints >= EQSliderPainter.minimumHeightPoints,
                     "a LARSBar slider must be at least 20 pt wide and 28 pt tall")
        self.layout = layout
        self.interactive = interactive
        self.thumbs = thumbs
    }
}
