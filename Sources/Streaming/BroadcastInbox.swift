import Knob

/// The hand-over point between the sampling thread and the broadcaster's event
/// loop: a fixed ring of the newest states, guarded by the broadcaster's
/// mutex.
///
/// `push` does a constant amount of work and never allocates (the ring is
/// allocated once), so the producer's `emit` is O(1) however many clients are
/// connected or stalled. If the event loop falls more than `capacity` states
/// behind, the oldest are skipped: every client then coalesces to the newest.
struct BroadcastInbox {
    private var ring: [KnobState?]
    /// Sequence number the next pushed state gets (the count ever pushed).
    private(set) var nextSequence: UInt64 = 0
    /// True while a drain is scheduled on the event loop and has not yet
    /// taken the states, so the producer schedules at most one per drain.
    var wakePending = false
    /// Set once by `StateBroadcaster.stop()`.
    var stopping = false
    /// Set by `StateBroadcaster.forgetCurrentState()`: new clients get no
    /// state until the next one is emitted.
    var forgetCurrent = false

    init(capacity: Int) {
        precondition(capacity > 0)
        ring = Array(repeating: nil, count: capacity)
    }

    var capacity: Int { ring.count }

    /// Stores `state` as the newest one.
    ///
    /// - Returns: true when the event loop needs a drain scheduled.
    mutating func push(_ state: KnobState) -> Bool {
        ring[Int(nextSequence % UInt64(ring.count))] = state
        nextSequence &+= 1
        if wakePending { return false }
        wakePending = true
        return true
    }

    /// Appends the states pushed since `sequence` (at most `capacity`, the
    /// newest) to `states`, advances `sequence` and clears `wakePending`.
    mutating func take(after sequence: inout UInt64, into states: inout [KnobState]) {
        wakePending = false
        let first = max(sequence, nextSequence &- UInt64(min(UInt64(ring.count), nextSequence)))
        var index = first
        while index < nextSequence {
            if let state = ring[Int(index % UInt64(ring.count))] { states.append(state) }
            index += 1
        }
        sequence = nextSequence
    }
}
