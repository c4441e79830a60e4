/// The number of consumers that want the device open: D-Bus claims plus,
/// with `Setting.onDemand`, socket and DSU clients; one stream of totals for
/// `ListenOnDemand`, so the device opens at the first consumer of any kind
/// and closes when the last of all has gone.
public final class DemandCount: Sendable {
    /// Who reports a count.
    public enum Consumer: Int, Sendable, CaseIterable {
        case socket, bus, dsu
    }

    private let counts = NewestValue([Int](repeating: 0, count: Consumer.allCases.count))

    public init() {}

    /// Reports how many of `consumer`'s clients want the device now (any thread).
    public func set(_ consumer: Consumer, _ count: Int) {
        counts.update { counts in
            counts[consumer.rawValue] = count
            return true
        }
    }

    public func socketClients(_ count: Int) { set(.socket, count) }
    public func busClaims(_ count: Int) { set(.bus, count) }

    /// The total now.
    public var total: Int { counts.current.value.reduce(0, +) }

    /// Waits for a report after `sequence` (0: any report).
    ///
    /// - Returns: the report's sequence and the newest total, or nil when
    ///   the task was cancelled first.
    public func next(after sequence: UInt64) async -> (sequence: UInt64, total: Int)? {
        guard let entry = await counts.next(after: sequence) else { return nil }
        return (entry.sequence, entry.value.reduce(0, +))
    }
}
