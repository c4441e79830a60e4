import Knob
import Motion

/// The still `tiltd draw rgb` asks for, checked: the linked colour sliders
/// under a swatch, or one component's track.
public struct ColourSlidersStill: Sendable {
    public var colour: RGBAColour
    public var widthPoints: Double
    /// Only this component's track; nil: the four sliders and the swatch.
    public var track: ColourComponent?
    public var trackHeightPoints: Double

    /// - Parameter colour: the colour as given, `R,G,B,A` or `R,G,B`, each 0…1.
    /// - Throws: `ControlStillError` for the first value out of range.
    public init(colour: String, widthPoints: Double, track: ColourComponent?,
                trackHeightPoints: Double) throws(ControlStillError) {
        try ControlStill.checkPoints(widthPoints, dimension: .width, minimum: ColourSliderPainter.thumbDiameterPoints,
                                     maximum: 2000)
        try ControlStill.checkPoints(trackHeightPoints, dimension: .trackHeight, minimum: 1, maximum: 100)
        guard let v = ControlStill.numbers(colour), v.count == 3 || v.count == 4,
              v.allSatisfy({ (0...1).contains($0) }) else {
            throw .colour(colour)
        }
        self.colour = RGBAColour(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        self.widthPoints = widthPoints
        self.track = track
        self.trackHeightPoints = trackHeightPoints
    }

    /// The still at `scale` pixels per point.
    public func image(scale: Int) -> RGBAImage {
        if let track {
            return ColourSliderPainter.track(track, colour: colour, widthPoints: widthPoints,
                                             heightPoints: trackHeightPoints, scale: scale)
        }
        return ControlStill.colourSliders(colour: colour, widthPoints: widthPoints, scale: scale)
    }
}
