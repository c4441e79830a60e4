import Knob
import Synchronization

/// The newest knob state for the web page's readers: `/state` reads it and
/// every event stream waits on it.
///
/// Readers never queue states: each one waits for "something newer than what
/// I sent" and then takes the newest, so a slow browser coalesces to the
/// latest state and costs no memory. `emit` stores the state and resumes the
/// readers waiting (at most the stream limit of them). It has the shape of
/// a state sink (`emit`) without depending on one.
public final class WebStateFeed: Sendable {
    /// A state with its position in the feed (1 for the first state).
    public struct Entry: Sendable {
        public var sequence: UInt64
        public var state: KnobState
        /// The page's extra fields in force when the entry was made
        /// (`WebStateFeed+Fields.swift`), as `,"key":value…`.
        public var fields: [UInt8] = []
    }

    private struct Shared {
        var latest: Entry?
        var fields = WebStateFields()
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var wakes: UInt64 = 0
    }

    private let shared = Mutex(Shared())

    public init() {}

    /// The newest state, nil before the first.
    public var current: Entry? { shared.withLock { $0.latest } }

    public func emit(_ state: KnobState) {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
            shared.latest = Entry(sequence: (shared.latest?.sequence ?? 0) + 1, state: state, fields: shared.fields.json)
            defer { shared.waiters.removeAll(keepingCapacity: true) }
            return Array(shared.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sets the extra field `key` to the JSON `value` (nil removes it) and,
    /// once a state exists, sends the newest state again with it, so every
    /// stream shows the change at once.
    public func setField(_ key: String, json value: String?) {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
            shared.fields.set(key, json: value)
            guard let latest = shared.latest else { return [] }
            shared.latest = Entry(sequence: latest.sequence + 1, state: latest.state, fields: shared.fields.json)
            defer { shared.waiters.removeAll(keepingCapacity: true) }
            return Array(shared.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Wakes every waiting reader without a new state, so that idle event
    /// streams can send a keep-alive (and find out whether the browser left).
    public func wakeAll() {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
            shared.wakes &+= 1
            defer { shared.waiters.removeAll(keepingCapacity: true) }
            return Array(shared.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many times `wakeAll()` has run: a reader that looks at something
    /// else on a wake (`WebChannelFeed`) reads this first and passes it to
    /// `next(after:wokenSince:)`, so a wake in between is not missed.
    public var wakes: UInt64 { shared.withLock { $0.wakes } }

    /// Waits for a state newer than `sequence` (0: any state).
    ///
    /// - Parameter wakes: when given, return at once (nil) if `wakeAll()`
    ///   ran since `wakes` was read.
    /// - Returns: the newest state, or nil when woken by `wakeAll()` or when
    ///   the task was cancelled before a newer state came.
    public func next(after sequence: UInt64, wokenSince wakes: UInt64? = nil) async -> Entry? {
        if let latest = current, latest.sequence > sequence { return latest }
        let id = shared.withLock { shared -> UInt64 in
            shared.nextWaiter += 1
            return shared.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = shared.withLock { shared -> Bool in
                    if (shared.latest?.sequence ?? 0) > sequence || shared.cancelled.remove(id) != nil
                        || (wakes != nil && wakes != shared.wakes) {
                        return true
                    }
                    shared.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = shared.withLock { shared -> CheckedContinuation<Void, Never>? in
                if let waiter = shared.waiters.removeValue(forKey: id) { return waiter }
                shared.cancelled.insert(id)  // not registered yet: resume it on arrival
                return nil
            }
            waiter?.resume()
        }
        shared.withLock { _ = $0.cancelled.remove(id) }
        guard let latest = current, latest.sequence > sequence else { return nil }
        return latest
    }
}
