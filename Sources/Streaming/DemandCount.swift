import Synchronization

/// The number of consumers that want the device open: D-Bus claims plus,
/// with `Setting.onDemand`, socket clients; reported to `ListenOnDemand` as one
/// count, so the device opens at the first consumer of either kind and
/// closes when the last of both has gone.
public final class DemandCount: Sendable {
    private let counts = Mutex((socket: 0, bus: 0))
    private let changed: @Sendable (Int) -> Void

    /// - Parameter changed: called with the new total after every report.
    public init(changed: @escaping @Sendable (Int) -> Void) { self.changed = changed }

    public func socketClients(_ count: Int) { report { $0.socket = count } }
    public func busClaims(_ count: Int) { report { $0.bus = count } }

    private func report(_ update: (inout (socket: Int, bus: Int)) -> Void) {
        let total = counts.withLock { counts -> Int in
            update(&counts)
            return counts.socket + counts.bus
        }
        changed(total)
    }
}
