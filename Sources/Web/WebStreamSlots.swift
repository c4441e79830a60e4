import Synchronization

/// Counts the page's open live streams (event streams and WebSockets) so
/// that at most `limit` run at once; each stream holds a `Slot` and frees it
/// when the stream ends.
public final class WebStreamSlots: Sendable {
    /// One open stream's claim; released when the last reference goes.
    final class Slot: Sendable {
        private let owner: WebStreamSlots
        fileprivate init(owner: WebStreamSlots) { self.owner = owner }
        deinit { owner.open.withLock { $0 -= 1 } }
    }

    /// Maximum number of concurrent streams.
    public let limit: Int
    private let open = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Streams open now.
    public var count: Int { open.withLock { $0 } }

    /// A slot, or nil when `limit` streams are already open.
    func claim() -> Slot? {
        let granted = open.withLock { open -> Bool in
            guard open < limit else { return false }
            open += 1
            return true
        }
        return granted ? Slot(owner: self) : nil
    }
}
