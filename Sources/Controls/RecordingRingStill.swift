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

    /// - Parameter holds: the holds as given, `H1,H2,…` seconds ("" for none).
    /// - Throws: `ControlStillError` for the first value out of range.
    public init(sizePoints: Double, durationSeconds: Double, holds: String, seed: UInt64) throws(ControlStillError) {
        try ControlStill.checkPoints(sizePoints, dimension: .size, minimum: RecordingRingPainter.minimumSizePoints,
                                     maximum: 2000)
        guard durationSeconds.isFinite, durationSeconds > 0, durationSeconds <= 86_400 else {
            throw .durationSeconds(durationSeconds)
        }
        var holdSeconds: [Double] = []
        if !holds.isEmpty {
            guard let v = ControlStill.numbers(holds), v.allSatisfy({ $0 >= 0 }) else {
                throw .holds(holds)
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
