/// Samples a trace of accepted knob states at a fixed frame rate: frame `k`
/// is shown at `t₀ + k/fps` (t₀ the first state's time), after every state
/// up to that instant has been handed to a `KnobAnimator`.
///
/// Frame times are computed in integer nanoseconds from the frame index, so
/// they do not drift and the same trace gives the same frames.
public struct FrameSampler: Sendable {
    /// One rendered frame's inputs.
    public struct Frame: Sendable, Equatable {
        /// Frame number from 0.
        public let index: Int
        /// Display time in nanoseconds (the states' clock).
        public let timestampNanoseconds: Int64
        /// The animated shines on screen at that time.
        public let shines: ShinePair
        /// The latest state at or before that time (its tilt drives the
        /// TLTiltSlider style, which does not animate).
        public let latest: KnobState
    }

    public let states: [KnobState]
    public let framesPerSecond: Int
    /// Frames the trace spans: from the first state to one frame past the
    /// last, so the last animation is seen to finish.
    public let frameCount: Int

    /// - Parameters:
    ///   - states: accepted states in time order, at least one.
    ///   - framesPerSecond: frame rate, at least 1.
    public init(states: [KnobState], framesPerSecond: Int = 60) {
        precondition(!states.isEmpty, "FrameSampler needs at least one state")
        precondition(framesPerSecond > 0, "frame rate must be positive")
        self.states = states
        self.framesPerSecond = framesPerSecond
        frameCount = Self.frameCount(from: states[0].tilt.timestampNanoseconds,
                                     to: states.last!.tilt.timestampNanoseconds,
                                     framesPerSecond: framesPerSecond)
    }

    /// Frames needed to show `first…last` at `framesPerSecond`: one per
    /// frame period plus one past the end. Exact for any two Int64
    /// timestamps (the span may exceed Int64: it is taken as UInt64), and
    /// saturates at `Int.max` instead of trapping, so a trace spanning
    /// centuries is refused by the caller's frame limit, not by a crash.
    public static func frameCount(from first: Int64, to last: Int64, framesPerSecond: Int) -> Int {
        guard last > first else { return 2 }
        // Two's complement: the bit pattern of last − first is the span as UInt64.
        let span = UInt64(bitPattern: last &- first)
        let fps = UInt64(framesPerSecond)
        let whole = (span / 1_000_000_000).multipliedReportingOverflow(by: fps)
        let part = (span % 1_000_000_000) * fps / 1_000_000_000
        let sum = whole.partialValue.addingReportingOverflow(part)
        guard !whole.overflow, !sum.overflow, sum.partialValue <= UInt64(Int.max - 2) else { return Int.max }
        return Int(sum.partialValue) + 2
    }

    /// Display time of frame `index` in nanoseconds: `t₀ + index/fps` s,
    /// rounded down, saturating at `Int64.max` for frames past the clock's end.
    public func timestamp(ofFrame index: Int) -> Int64 {
        let fps = Int64(framesPerSecond)
        let seconds = Int64(index) / fps
        let (wholeNanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let offset = wholeNanoseconds.addingReportingOverflow((Int64(index) % fps) * 1_000_000_000 / fps)
        let time = states[0].tilt.timestampNanoseconds.addingReportingOverflow(offset.partialValue)
        return overflow || offset.overflow || time.overflow ? Int64.max : time.partialValue
    }

    /// Calls `body` for every frame in order.
    public func forEachFrame(_ body: (Frame) throws -> Void) rethrows {
        // The knob starts out showing the first state, not the rest pose.
        var animator = KnobAnimator(initial: states[0].shines)
        var next = 0
        for index in 0..<frameCount {
            let t = timestamp(ofFrame: index)
            while next < states.count, states[next].tilt.timestampNanoseconds <= t {
                animator.accept(states[next].shines, atNanoseconds: states[next].tilt.timestampNanoseconds)
                next += 1
            }
            try body(Frame(index: index, timestampNanoseconds: t,
                           shines: animator.displayed(atNanoseconds: t), latest: states[max(0, next - 1)]))
        }
    }
}
