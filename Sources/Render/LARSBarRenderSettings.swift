import Controls
import Foundation
import Knob
import Levels
import Motion

/// What `tiltd render` draws.
public enum RenderControl: String, CaseIterable, Sendable {
    /// The knob alone (or on its track at a slider value): the default.
    case knob
    /// The whole LARSBar EQ volume slider, its lights from a level file and
    /// the knob as its thumb.
    case larsbar
}

/// `tiltd render` of the LARSBar slider: the slider's size, value and level
/// file, as `tiltd draw larsbar` and `serve` name them.
///
/// Frames are exactly the control's bounds, `width × 44 pt × scale`, on the
/// original's body colour (opaque). y4m frames must be an even number of
/// pixels wide (4:2:0 chroma covers 2 × 2 pixels, and most encoders refuse
/// odd sizes); an odd width is refused before anything is written rather
/// than padded, so a frame is always exactly the control.
public struct LARSBarRenderSettings: Sendable, Equatable {
    /// A WAV (or other libsndfile audio) or levels JSON Lines file; its time 0 is the first frame.
    public var levelsFile: String
    /// The slider's value, 0…1.
    public var value: Double
    public var widthPoints: Double
    /// Device pixels per point, 1…3.
    public var scale: Int

    public static let defaultValue = 0.5, defaultWidthPoints = 280.0, defaultScale = 2
    /// The widest slider render draws, as `tiltd draw larsbar`.
    public static let maximumWidthPoints = 2000.0

    public init(levelsFile: String, value: Double = Self.defaultValue, widthPoints: Double = Self.defaultWidthPoints,
                scale: Int = Self.defaultScale) {
        self.levelsFile = levelsFile
        self.value = value
        self.widthPoints = widthPoints
        self.scale = scale
    }

    /// The slider's layout: `widthPoints × 44 pt`.
    public var layout: EQSliderLayout { EQSliderLayout(widthPoints: widthPoints) }

    /// An input of `choose`, named in its refusals.
    public enum Input: Sendable, Equatable {
        case levelsFile, value, width, scale, knobSize, knobStyle, sliderValue
    }

    /// Why the inputs do not make a render (of the slider or of the knob).
    public enum Invalid: Error, Sendable, Equatable {
        /// The slider's inputs given for a render of the knob.
        case sliderInputsForTheKnob([Input])
        /// The knob's own inputs given for a render of the slider.
        case knobInputsForTheSlider([Input])
        /// The slider without a level file (or with an empty name).
        case noLevelsFile
        /// A width outside `minimum...maximum` points.
        case width(Double, minimum: Double, maximum: Double)
        /// A scale the painter does not draw.
        case scale(Int)
        /// A value outside 0…1.
        case value(Double)
        /// y4m frames an odd number of pixels wide; `evenWidth` points make them even.
        case oddWidthForY4M(width: Double, scale: Int, pixels: Int, evenWidth: Double)
    }

    /// The render's slider from the inputs, or nil for the knob; a failure
    /// says which inputs do not go together or which is out of range.
    /// - Parameters:
    ///   - knobSize, knobStyle, sliderValue: the knob-only inputs (nil when not given).
    public static func choose(control: RenderControl, levelsFile: String?, value: Double?, widthPoints: Double?,
                              scale: Int?, knobSize: Int?, knobStyle: KnobStyle?, sliderValue: Double?,
                              format: RenderFormat) -> Result<LARSBarRenderSettings?, Invalid> {
        guard control == .larsbar else {
            let given = [(Input.levelsFile, levelsFile != nil), (.value, value != nil),
                         (.width, widthPoints != nil), (.scale, scale != nil)].filter(\.1).map(\.0)
            guard given.isEmpty else { return .failure(.sliderInputsForTheKnob(given)) }
            return .success(nil)
        }
        let knobOnly = [(Input.knobSize, knobSize != nil), (.knobStyle, knobStyle != nil), (.sliderValue, sliderValue != nil)]
            .filter(\.1).map(\.0)
        if !knobOnly.isEmpty { return .failure(.knobInputsForTheSlider(knobOnly)) }
        guard let levelsFile, !levelsFile.isEmpty else { return .failure(.noLevelsFile) }
        let settings = LARSBarRenderSettings(levelsFile: levelsFile, value: value ?? defaultValue,
                                             widthPoints: widthPoints ?? defaultWidthPoints, scale: scale ?? defaultScale)
        if let problem = settings.problem(format: format) { return .failure(problem) }
        return .success(settings)
    }

    /// Why these settings cannot be drawn in `format`, or nil.
    func problem(format: RenderFormat) -> Invalid? {
        let minimum = EQSliderPainter.minimumWidthPoints, maximum = Self.maximumWidthPoints
        guard widthPoints.isFinite, (minimum...maximum).contains(widthPoints) else {
            return .width(widthPoints, minimum: minimum, maximum: maximum)
        }
        guard EQSliderPainter.supportedScales.contains(scale) else { return .scale(scale) }
        guard value.isFinite, (0...1).contains(value) else { return .value(value) }
        let pixels = Self.pixels(widthPoints, scale: scale)
        if format == .y4m, !pixels.isMultiple(of: 2) {
            let even = (widthPoints.rounded(.down) / 2).rounded(.down) * 2
            return .oddWidthForY4M(width: widthPoints, scale: scale, pixels: pixels, evenWidth: even)
        }
        return nil
    }

    /// `points × scale` rounded, as `ControlCanvas` sizes its image.
    static func pixels(_ points: Double, scale: Int) -> Int { Int((points * Double(scale)).rounded()) }

    /// Loads the level file and makes the frames' painter.
    /// - Parameters:
    ///   - light: the colour the thumb's shines reflect.
    ///   - lastFrameSeconds: the last frame's time, to say when the levels end before it.
    /// - Returns: the painter, and a note when the levels end before the
    ///   last frame (their last record is held from then on).
    /// - Throws: `RenderError` naming the file (and line) and what to do.
    public func makePainter(light: LightColour, lastFrameSeconds: Double) throws
        -> (painter: EQSliderFramePainter, note: String?) {
        let track: LevelTrack
        do { track = try LevelTrack.load(path: levelsFile) } catch { throw RenderError.levelsFile(reason: "\(error)") }
        let updates = track.records.map { (seconds: $0.seconds, left: $0.left, right: $0.right) }
        let painter = EQSliderFramePainter(layout: layout, scale: scale, value: value, updates: updates, light: light)
        var note: String?
        if track.durationSeconds < lastFrameSeconds {
            note = "levels in \(levelsFile) end at " + String(format: "%.2f s", track.durationSeconds)
                + ", before the last frame at " + String(format: "%.2f s", lastFrameSeconds)
                + ": the last levels are held from there"
        }
        return (painter, note)
    }
}
