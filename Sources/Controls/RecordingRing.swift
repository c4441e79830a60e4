/// The Spark Camera recording ring's model (CONTROLS.md §2): a circle of
/// duration D that fills while it is held, one coloured segment per hold,
/// until the whole duration is used.
///
/// Times are explicit seconds on one clock and must not go backward (an
/// earlier time is taken as the latest one seen). While a hold lasts, its
/// segment grows linearly, `min((t − t0) / D, 1 − L0)` of the circle with
/// `L0` the total before the press; releasing freezes exactly the length
/// shown; at `t0 + D · (1 − L0)` the ring completes and ignores presses from
/// then on. A tap of no length still adds a segment of length 0. There is
/// no reset, as in the original.
public struct RecordingRing: Sendable, Equatable {
    /// One hold: its length as a fraction of the circle, and its colour.
    public struct Segment: Sendable, Equatable {
        public var length: Double
        public var colour: RGBAColour
    }

    /// What the ring is doing.
    public enum Phase: Sendable, Equatable {
        case idle
        /// Held since `startSeconds`, with `startTotal` of the circle used before.
        case holding(startSeconds: Double, startTotal: Double)
        case complete
    }

    /// The whole circle's duration, seconds (45 by default).
    public let durationSeconds: Double
    /// The holds, oldest first, as of the latest time seen.
    public private(set) var segments: [Segment] = []
    public private(set) var phase: Phase = .idle
    /// The latest time seen.
    public private(set) var latestSeconds = -Double.infinity
    private var colours: RingColourGenerator

    /// The original's default duration.
    public static let defaultDurationSeconds = 45.0

    /// - Parameters:
    ///   - durationSeconds: the whole circle, > 0.
    ///   - seed: picks the segment colours.
    public init(durationSeconds: Double = Self.defaultDurationSeconds, seed: UInt64 = 0) {
        precondition(durationSeconds > 0 && durationSeconds.isFinite, "a ring's duration must be positive")
        self.durationSeconds = durationSeconds
        colours = RingColourGenerator(seed: seed)
    }

    /// The fraction of the circle used, Σℓ.
    public var total: Double { segments.reduce(0) { $0 + $1.length } }

    public var isComplete: Bool { phase == .complete }

    /// When a hold that started at `start` with `used` of the circle filled
    /// completes the ring.
    func completionSeconds(start: Double, used: Double) -> Double {
        start + durationSeconds * (1 - used)
    }

    /// Brings the newest segment up to time `seconds` (completing the ring
    /// when a hold reaches the end).
    public mutating func advance(toSeconds seconds: Double) {
        let now = max(seconds, latestSeconds)
        latestSeconds = now
        guard case let .holding(start, used) = phase else { return }
        if now >= completionSeconds(start: start, used: used) {
            segments[segments.count - 1].length = 1 - used
            phase = .complete
        } else {
            segments[segments.count - 1].length = min((now - start) / durationSeconds, 1 - used)
        }
    }

    /// A finger goes down: a new segment of length 0 starts growing, unless
    /// the ring is complete (ignored) or already held (nothing new).
    public mutating func press(atSeconds seconds: Double) {
        advance(toSeconds: seconds)
        guard phase == .idle else { return }
        segments.append(Segment(length: 0, colour: colours.nextColour()))
        phase = .holding(startSeconds: latestSeconds, startTotal: total)
    }

    /// The finger lifts: the newest segment keeps the length it shows.
    public mutating func release(atSeconds seconds: Double) {
        advance(toSeconds: seconds)
        if case .holding = phase { phase = .idle }
    }

    /// Where each segment lies on the path, `u` from 0 at 9 o'clock running
    /// counter-clockwise: newest first from `u = 0`, each older one where
    /// the newer ones end.
    public var spans: [(range: ClosedRange<Double>, colour: RGBAColour)] {
        var start = 0.0
        return segments.reversed().map { segment in
            defer { start += segment.length }
            return (start...(start + segment.length), segment.colour)
        }
    }
}
