import Synchronization

/// What the consumers of a live capture need from its pace, told to the
/// capture thread: whether someone needs every sample as it comes (a DSU
/// subscriber: emulators time motion by packet arrival), and when a state
/// last passed the gate (the device moving). The capture reads one scan
/// per wake-up while the first holds and wakes less often at rest
/// (`CaptureLatency.restBudgetSeconds`, then `settledBudgetSeconds`).
public final class CaptureDemand: Sendable {
    private let perSampleClients = Atomic<Int>(0)
    /// The sample time of the newest state that passed the gate; `Int64.min` before any.
    private let lastStateNanoseconds = Atomic<Int64>(.min)

    public init() {}

    /// Reports how many clients need every sample at once (any thread).
    public func perSampleClientsChanged(_ count: Int) {
        perSampleClients.store(max(0, count), ordering: .relaxed)
    }

    /// True while some client needs every sample at once.
    public var wantsEverySampleAtOnce: Bool { perSampleClients.load(ordering: .relaxed) > 0 }

    /// Notes that the sample at `nanoseconds` made a state (it passed the gate).
    public func stateMade(atNanoseconds nanoseconds: Int64) {
        lastStateNanoseconds.store(nanoseconds, ordering: .relaxed)
    }

    /// The rest budget at sample time `now` (`CaptureLatency.restBudgetSeconds(stillNanoseconds:)`):
    /// nil while the device moves (a state within `CaptureLatency.restAfterSeconds`)
    /// or before the first state.
    public func restBudgetSeconds(atNanoseconds now: Int64) -> Double? {
        let last = lastStateNanoseconds.load(ordering: .relaxed)
        guard last != .min else { return nil }
        return CaptureLatency.restBudgetSeconds(stillNanoseconds: now - last)
    }

    /// The budget in force now, in seconds, for a capture with `latency`,
    /// the newest sample at `now`: 0 while someone needs every sample, the
    /// rest budget (or the settled one) at rest, else `latency`'s.
    public func budgetSeconds(latency: CaptureLatency, atNanoseconds now: Int64?) -> Double {
        guard latency.budgetSeconds > 0, !wantsEverySampleAtOnce else { return 0 }
        if let now, let rest = restBudgetSeconds(atNanoseconds: now) {
            return max(latency.budgetSeconds, rest)
        }
        return latency.budgetSeconds
    }
}
