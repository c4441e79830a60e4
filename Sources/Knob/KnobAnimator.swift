import Motion

/// What the knob displays between accepted states, as the original's layer
/// animations showed it (SPEC §1): each accepted state starts an animation
/// from what is displayed at that instant (never from an older model value)
/// to the new target, lasting `durationNanoseconds` (1/120 s by default) and
/// eased by `curve` (Core Animation's ease-in-ease-out by default). Rotations
/// and opacities are interpolated independently and linearly in progress;
/// rotations are not wrapped, since the pipeline keeps them continuous.
///
/// Pure arithmetic on the given timestamps: the same states give the same
/// displayed values on every run.
public struct KnobAnimator: Sendable {
    /// Animation length in nanoseconds (8 333 333 for 1/120 s).
    public let durationNanoseconds: Int64
    public let curve: TimingCurve
    private var from: ShinePair
    private var to: ShinePair
    private var start: Int64?

    /// - Parameters:
    ///   - initial: what is displayed before the first state (the rest pose).
    ///   - durationSeconds: animation length, 1/120 s in the original.
    ///   - curve: easing of each animation.
    public init(initial: ShinePair = .rest, durationSeconds: Double = 1.0 / 120,
                curve: TimingCurve = .easeInEaseOut) {
        precondition(durationSeconds >= 0, "animation duration must not be negative")
        durationNanoseconds = Int64((durationSeconds * 1e9).rounded())
        self.curve = curve
        from = initial
        to = initial
    }

    /// The target of the animation under way (or of the last one).
    public var target: ShinePair { to }

    /// Starts animating from what is displayed at `timestampNanoseconds` to
    /// `target`.
    public mutating func accept(_ target: ShinePair, atNanoseconds timestampNanoseconds: Int64) {
        from = displayed(atNanoseconds: timestampNanoseconds)
        to = target
        start = timestampNanoseconds
    }

    /// What is on screen at `timestampNanoseconds` (not before the last
    /// accepted state's time; earlier times show the animation's start).
    public func displayed(atNanoseconds timestampNanoseconds: Int64) -> ShinePair {
        guard let start else { return to }
        let elapsed = Nanoseconds.difference(timestampNanoseconds, start)
        if elapsed >= durationNanoseconds { return to }
        if elapsed <= 0 { return from }
        let p = curve.progress(Double(elapsed) / Double(durationNanoseconds))
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
        return ShinePair(
            first: Shine(rotation: mix(from.first.rotation, to.first.rotation),
                         opacity: mix(from.first.opacity, to.first.opacity)),
            second: Shine(rotation: mix(from.second.rotation, to.second.rotation),
                          opacity: mix(from.second.opacity, to.second.opacity)))
    }
}
