import Knob
import Motion

/// The still `tiltd draw larsbar` asks for, checked: the LARSBar EQ slider
/// at a value with settled lights, its thumb shining from a tilt.
public struct EQSliderStill: Sendable {
    public var widthPoints: Double
    public var heightPoints: Double
    /// The slider's value, 0…1.
    public var value: Double
    /// Left and right channel levels, each 0…1.
    public var levels: (left: Double, right: Double)
    public var shines: ShinePair

    /// - Parameter levels: the two levels as given, `L,R`.
    /// - Throws: `ControlStillError` for the first value out of range.
    public init(widthPoints: Double, heightPoints: Double, value: Double, levels: String,
                rollRadians: Double, pitchRadians: Double) throws(ControlStillError) {
        try ControlStill.checkPoints(widthPoints, dimension: .width, minimum: EQSliderPainter.minimumWidthPoints,
                                     maximum: 2000)
        try ControlStill.checkPoints(heightPoints, dimension: .height, minimum: EQSliderPainter.minimumHeightPoints,
                                     maximum: 400)
        guard value.isFinite, (0...1).contains(value) else { throw .value(value) }
        guard let v = ControlStill.numbers(levels), v.count == 2, v.allSatisfy({ (0...1).contains($0) }) else {
            throw .levels(levels)
        }
        guard rollRadians.isFinite, pitchRadians.isFinite else { throw .angles }
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.value = value
        self.levels = (v[0], v[1])
        shines = ShinePair(roll: rollRadians, pitch: pitchRadians)
    }

    /// The still at `scale` pixels per point, the shines tinted by `light`.
    public func image(light: LightColour, scale: Int) -> RGBAImage {
        ControlStill.eqSlider(widthPoints: widthPoints, heightPoints: heightPoints, value: value,
                              leftLevel: levels.left, rightLevel: levels.right, shines: shines, light: light,
                              scale: scale)
    }
}
