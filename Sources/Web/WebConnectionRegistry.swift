import NIOCore
import Synchronization

/// Every open connection of one server, oldest first, so that at the cap a
/// new connection evicts the oldest one still waiting for its request.
///
/// A flood of slow connections (slowloris) then costs the attacker its own
/// oldest sockets, never a real client's request in progress: a connection
/// whose request head arrived (a response or a live stream under way) is
/// never evicted. When every connection is busy the newcomer is closed.
final class WebConnectionRegistry: Sendable {
    /// What `register` decided for a new connection.
    enum Admission {
        /// Within the cap.
        case admitted(id: UInt64)
        /// At the cap: `victim` (waiting for its request) makes room.
        case admittedEvicting(id: UInt64, victim: any Channel)
        /// At the cap and every connection is busy: close the newcomer.
        case refused
    }

    private struct Entry {
        var channel: any Channel
        var awaitingRequest: Bool
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var evictions = 0
    }

    /// Most connections open at once.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Connections open now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Connections evicted so far to make room.
    var evictions: Int { state.withLock { $0.evictions } }

    /// Registers a new connection (waiting for its first request).
    func register(_ channel: any Channel) -> Admission {
        state.withLock { state in
            var victim: (id: UInt64, channel: any Channel)?
            if state.entries.count >= limit {
                // Ids grow with age: the smallest waiting id is the oldest.
                guard let oldest = state.entries.filter({ $0.value.awaitingRequest }).min(by: { $0.key < $1.key }) else {
                    return .refused
                }
                state.entries[oldest.key] = nil
                state.evictions += 1
                victim = (oldest.key, oldest.value.channel)
            }
            state.nextID += 1
            let id = state.nextID
            state.entries[id] = Entry(channel: channel, awaitingRequest: true)
            if let victim { return .admittedEvicting(id: id, victim: victim.channel) }
            return .admitted(id: id)
        }
    }

    /// Marks whether connection `id` waits for a request (evictable) or is busy.
    func setAwaitingRequest(_ id: UInt64, _ awaiting: Bool) {
        state.withLock { $0.entries[id]?.awaitingRequest = awaiting }
    }

    /// Forgets connection `id` (closed).
    func remove(_ id: UInt64) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Closes every open connection (the end of a shutdown's drain): a
    /// browser that neither reads nor closes (a WebSocket with a full send
    /// buffer, one mid-message) would otherwise hold the server open.
    func closeAll() {
        let channels = state.withLock { $0.entries.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
    }
}
