import Synchronization

/// A one-way gate that any thread opens and async code awaits: the end of a
/// thread (`DetachedThread.start` returns one) or of a run. Closed until
/// `open()`; from then on every `wait()` returns at once.
public final class Latch: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    /// Whether `open()` has been called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the gate and resumes every waiter (any thread); idempotent.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until the gate is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
