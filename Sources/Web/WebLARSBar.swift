import Controls
import Foundation
import Knob
import KnobPNG

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
    /// PNG files of the thumb's base and unrotated shine, by scale (1…3).
    public var thumbBasePNG: [Int: Data]
    public var thumbShinePNG: [Int: Data]

    /// The name of the input control and channel the slider's value uses.
    public static let valueChannel = "volume"
    /// The channel the two levels come on (`{"t":…,"left":…,"right":…}`).
    public static let levelsChannel = "levels"

    /// The original's slider, 280 pt wide (40 lights a row), with thumb
    /// layers from the project's rasterizer.
    ///
    /// - Throws: `PNGError` when libpng cannot encode the layers.
    public static func render(widthPoints: Double = 280, interactive: Bool) throws -> WebLARSBar {
        var base: [Int: Data] = [:], shine: [Int: Data] = [:]
        for scale in EQSliderPainter.supportedScales {
            let layers = KnobLayers(geometry: KnobGeometry(knobPoints: EQSliderPainter.thumbKnobPoints, scale: scale))
            base[scale] = Data(try PNGWriter.encode(layers.base, fast: false))
            shine[scale] = Data(try PNGWriter.encode(layers.shine, fast: false))
        }
        return WebLARSBar(layout: EQSliderLayout(widthPoints: widthPoints), interactive: interactive,
                          thumbBasePNG: base, thumbShinePNG: shine)
    }

    public init(layout: EQSliderLayout, interactive: Bool, thumbBasePNG: [Int: Data], thumbShinePNG: [Int: Data]) {
        precondition(layout.widthPoints >= EQSliderPainter.minimumWidthPoints
                     && layout.heightPoints >= EQSliderPainter.minimumHeightPoints,
                     "a LARSBar slider must be at least 20 pt wide and 28 pt tall")
        self.layout = layout
        self.interactive = interactive
        self.thumbBasePNG = thumbBasePNG
        self.thumbShinePNG = thumbShinePNG
    }
}
