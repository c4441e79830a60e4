import Foundation
import Images
import Knob

/// One still of a control, as `tiltd draw` makes it: the control painted
/// at `scale` pixels per point into an image exactly its bounds, with the
/// originals' numbers (docs/controls.md), and written whole.
public enum ControlStill {
    /// The LARSBar EQ slider at `value` with settled lights for the two
    /// channel levels, its thumb shining from `shines`.
    public static func eqSlider(widthPoints: Double, heightPoints: Double, value: Double, leftLevel: Double,
                                rightLevel: Double, shines: ShinePair, light: LightColour, scale: Int) -> RGBAImage {
        let layout = EQSliderLayout(widthPoints: widthPoints, heightPoints: heightPoints)
        let model = EQSliderModel(value: value, leftLevel: leftLevel, rightLevel: rightLevel)
        return EQSliderPainter(layout: layout, scale: scale).paintSettled(model, shines: shines, light: light)
    }

    /// The Spark recording ring after holds of `holdSeconds` (oldest first):
    /// each pressed, held and released, a second apart.
    public static func recordingRing(sizePoints: Double, durationSeconds: Double, holdSeconds: [Double],
                                     seed: UInt64, scale: Int) -> RGBAImage {
        var ring = RecordingRing(durationSeconds: durationSeconds, seed: seed)
        var now = 0.0
        for hold in holdSeconds {
            ring.press(atSeconds: now)
            ring.release(atSeconds: now + hold)
            now += hold + 1
        }
        return RecordingRingPainter(sizePoints: sizePoints, scale: scale).paint(ring)
    }

    /// The four linked colour sliders set to `colour`, under its swatch.
    public static func colourSliders(colour: RGBAColour, widthPoints: Double, scale: Int) -> RGBAImage {
        var group = ColourSliderGroup()
        for component in ColourComponent.allCases { group.addSlider(component) }
        for component in ColourComponent.allCases { group.set(component, to: component.value(in: colour)) }
        return ColourSlidersView(widthPoints: widthPoints, scale: scale).paint(group)
    }

    /// Writes `image` to `path` whole (a temporary name, then renamed).
    ///
    /// - Returns: the line saying where it went and its size.
    /// - Throws: `PNGWriter`'s error naming the file and the reason.
    public static func write(_ image: RGBAImage, to path: String) throws -> String {
        try PNGWriter.write(image, to: path, fast: false)
        return "wrote \(path) (\(image.width)×\(image.height) px)"
    }

    /// A number as typed, without a trailing ".0".
    public static func numberText(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// Comma-separated finite numbers ("0.2,0.4"); nil if any part is not one.
    public static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == parts.count, values.allSatisfy(\.isFinite) else { return nil }
        return values
    }
}

/// Values a still cannot be drawn with.
public enum ControlStillError: Error, Sendable, Equatable {
    /// A size outside `minimum...maximum` points.
    case points(Double, dimension: Dimension, minimum: Double, maximum: Double)
    /// The slider's value outside 0…1.
    case value(Double)
    /// Levels that are not two numbers 0…1 as `L,R`.
    case levels(String)
    /// A roll or pitch that is not finite.
    case angles
    /// A colour that is not `R,G,B,A` or `R,G,B`, each 0…1.
    case colour(String)
    /// A ring's duration outside (0, 86400] seconds.
    case durationSeconds(Double)
    /// Holds that are not seconds ≥ 0 separated by commas.
    case holds(String)

    /// Which size of the still.
    public enum Dimension: Sendable, Equatable {
        case width, height, trackHeight, size
    }
}
