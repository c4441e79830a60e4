import Synchronization

/// Counts the page's open live streams (event streams and WebSockets) so
/// that at most `limit` run at once, and at most `perSourceLimit` for one
/// source (a client address): a page on another site, or a script, that
/// opens every stream it can from one address leaves the rest to others.
/// Each stream holds a `Slot` and frees it when the stream ends.
public final class WebStreamSlots: Sendable {
    /// One open stream's claim; released when the last reference goes.
    final class Slot: Sendable {
        private let owner: WebStreamSlots
        let source: String
        fileprivate init(owner: WebStreamSlots, source: String) {
            self.owner = owner
            self.source = source
        }
        deinit { owner.release(source) }
    }

    /// What `claim` decided.
    enum Claim {
        case granted(Slot)
        /// `limit` streams are open.
        case full
        /// `perSourceLimit` streams are open from this source.
        case sourceFull
    }

    private struct State {
        var open = 0
        /// Open streams per source; a source without streams has no entry,
        /// so this holds at most `limit` entries.
        var bySource: [String: Int] = [:]
    }

    /// Maximum number of concurrent streams.
    public let limit: Int
    /// Maximum number of concurrent streams from one source.
    public let perSourceLimit: Int
    private let state = Mutex(State())

    /// - Parameter perSourceLimit: streams one source may hold; nil: half
    ///   of `limit` (rounded up), so one source never holds them all when
    ///   `limit` is 2 or more.
    init(limit: Int, perSourceLimit: Int? = nil) {
        self.limit = limit
        self.perSourceLimit = min(limit, max(1, perSourceLimit ?? Self.defaultPerSourceLimit(limit: limit)))
    }

    /// The per-source limit without `Setting.maxStreamsPerClient`: half of
    /// `limit`, rounded up.
    public static func defaultPerSourceLimit(limit: Int) -> Int { (limit + 1) / 2 }

    /// Streams open now.
    public var count: Int { state.withLock { $0.open } }

    /// Streams open now from `source`.
    public func count(from source: String) -> Int { state.withLock { $0.bySource[source] ?? 0 } }

    /// A slot for a stream from `source` (a client address), unless `limit`
    /// streams, or `perSourceLimit` from `source`, are open already.
    func claim(source: String) -> Claim {
        let granted = state.withLock { state -> Claim? in
            guard state.open < limit else { return .full }
            let held = state.bySource[source] ?? 0
            guard held < perSourceLimit else { return .sourceFull }
            state.open += 1
            state.bySource[source] = held + 1
            return nil
        }
        return granted ?? .granted(Slot(owner: self, source: source))
    }

    private func release(_ source: String) {
        state.withLock { state in
            state.open -= 1
            let held = (state.bySource[source] ?? 1) - 1
            state.bySource[source] = held > 0 ? held : nil
        }
    }
}
