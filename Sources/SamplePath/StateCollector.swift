import Knob

/// Keeps every state in memory, in order: `tiltd render` animates the whole
/// recording's states after the run.
public final class StateCollector: StateSink {
    /// The states emitted so far.
    public private(set) var states: [KnobState] = []

    /// - Parameter expectedCount: capacity to reserve (the number of readings is an upper bound).
    public init(expectedCount: Int = 0) {
        states.reserveCapacity(expectedCount)
    }

    public func emit(_ state: EncodedState) {
        states.append(state.state)
    }
}
