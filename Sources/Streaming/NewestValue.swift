import Synchronization

/// A mailbox that holds only the newest value, for consumers of the hub
/// that read at their own pace (the web page's streams, the D-Bus thread,
/// the on-demand switch): a writer never waits and never queues, and a slow
/// reader coalesces to the newest value and costs no memory.
///
/// Every change that counts as new bumps a sequence; a reader remembers the
/// last sequence it took and waits for a newer one, either as a task
/// (`next(after:wokenSince:)`) or as a thread woken by `onPost` (a poll loop's
/// wake-up descriptor) that then reads `current`.
public final class NewestValue<Value: Sendable>: Sendable {
    /// The value with its position: 1 for the first new value, 0 before it.
    public struct Entry: Sendable {
        public var sequence: UInt64
        public var value: Value
    }

    private struct Shared {
        var entry: Entry
        var wakes: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let shared: Mutex<Shared>
    private let onPost: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - initial: the value before the first post (sequence 0).
    ///   - onPost: called after every new value and `wakeAll()`, outside the
    ///     lock (wakes a thread's poll loop); must not block.
    public init(_ initial: Value, onPost: (@Sendable () -> Void)? = nil) {
        shared = Mutex(Shared(entry: Entry(sequence: 0, value: initial)))
        self.onPost = onPost
    }

    /// The newest value and its sequence.
    public var current: Entry { shared.withLock { $0.entry } }

    /// How many times `wakeAll()` has run; see `next(after:wokenSince:)`.
    public var wakes: UInt64 { shared.withLock { $0.wakes } }

    /// Replaces the value with a new one.
    public func post(_ value: Value) {
        update { $0 = value; return true }
    }

    /// Changes the value under the lock; when `change` returns true the
    /// result is a new value (its sequence is bumped, readers wake).
    public func update(_ change: (inout Value) -> Bool) {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>]? in
            guard change(&shared.entry.value) else { return nil }
            shared.entry.sequence += 1
            return Self.takeWaiters(&shared)
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume() }
        onPost?()
    }

    /// Wakes every waiting reader without a new value (an idle stream's
    /// keep-alive, a channel beside the value).
    public func wakeAll() {
        let waiters = shared.withLock { shared in
            shared.wakes &+= 1
            return Self.takeWaiters(&shared)
        }
        for waiter in waiters { waiter.resume() }
        onPost?()
    }

    private static func takeWaiters(_ shared: inout Shared) -> [CheckedContinuation<Void, Never>] {
        defer { shared.waiters.removeAll(keepingCapacity: true) }
        return Array(shared.waiters.values)
    }

    /// Waits for a value newer than `sequence` (0: any posted value).
    ///
    /// - Parameter wakes: when given, return at once (nil) if `wakeAll()`
    ///   ran since `wakes` was read (a reader that looks at something else
    ///   on a wake reads `wakes` first, so a wake in between is not missed).
    /// - Returns: the newest entry, or nil when woken by `wakeAll()` or when
    ///   the task was cancelled before a newer value came.
    public func next(after sequence: UInt64, wokenSince wakes: UInt64? = nil) async -> Entry? {
        let id = shared.withLock { shared -> UInt64? in
            guard shared.entry.sequence <= sequence else { return nil }
            shared.nextWaiter += 1
            return shared.nextWaiter
        }
        guard let id else { return current }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancelled before this (its handler found no waiter): resume at once.
                let resumeNow = shared.withLock { shared -> Bool in
                    if shared.entry.sequence > sequence || Task.isCancelled || (wakes != nil && wakes != shared.wakes) {
                        return true
                    }
                    shared.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            shared.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return shared.withLock { $0.entry.sequence > sequence ? $0.entry : nil }
    }
}
