import Knob
import Motion

/// The still `tiltd draw spark` asks for, checked: the recording ring after
/// some holds.
public struct RecordingRingStill: Sendable {
    public var sizePoints: Double
    /// Seconds the whole circle stands for.
    public var durationSeconds: Double
    /// Hold lengths, oldest first.
    public var holdSeconds: [Double]
    /// Seed of the segment colours.
    public var seed: UInt64

    /// - Parameter holds: `Setting.holds` as given, `H1,H2,…` seconds ("" for none).
    /// - Throws: `ControlStillError` naming the first option out of range.
    public init(sizePoints: Double, durationSeconds: Double, holds: String, seed: UInt64) throws(ControlStillError) {
        try ControlStill.checkPoints(sizePoints, option: .size, minimum: RecordingRingPainter.minimumSizePoints,
                                     maximum: 2000)
        guard durationSeconds.isFinite, durationSeconds > 0, durationSeconds <= 86_400 else {
            throw ControlStillError("\(.duration) must be more than 0 and at most 86400 seconds, got \(durationSeconds)")
        }
        var holdSeconds: [Double] = []
        if !holds.isEmpty {
            guard let v = ControlStill.numbers(holds), v.allSatisfy({ $0 >= 0 }) else {
                throw ControlStillError("\(.holds) must be seconds ≥ 0 separated by commas such as 2,3.5, got '\(holds)'")
            }
            holdSeconds = v
        }
        self.sizePoints = sizePoints
        self.durationSeconds = durationSeconds
        self.holdSeconds = holdSeconds
        self.seed = seed
    }

    /// The still at `scale` pixels per point.
    public func image(scale: Int) -> RGBAImage {
        ControlStill.recordingRing(sizePoints: sizePoints, durationSeconds: durationSeconds, holdSeconds: holdSeconds,
                                   seed: seed, scale: scale)
    }
}
