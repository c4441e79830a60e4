import Synchronization

/// A clock that moves only when a test says so: code that sleeps on it
/// (a release grace, a duration) wakes at `advance(by:)`, and the test can
/// wait until the code is asleep (`sleepers(_:)`) instead of guessing.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// Tests waiting for a number of sleepers.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (result, watchers) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, Self.satisfiedWatchers(&state))
                }
                if let result { continuation.resume(with: result) }
                for watcher in watchers { watcher.resume() }
            }
        } onCancel: {
            let (sleeper, watchers) = state.withLock { state -> (Sleeper?, [CheckedContinuation<Void, Never>]) in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return (nil, [])
                }
                return (sleeper, Self.satisfiedWatchers(&state))
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for watcher in watchers { watcher.resume() }
        }
    }

    /// Moves the clock on, waking every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let (due, watchers) = state.withLock { state -> ([Sleeper], [CheckedContinuation<Void, Never>]) in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return (Array(due.values), Self.satisfiedWatchers(&state))
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in watchers { watcher.resume() }
    }

    /// Returns once exactly `count` tasks sleep on the clock.
    public func sleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.sleepers.count == count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count == count }.map(\.continuation)
        state.watchers.removeAll { $0.count == count }
        return ready
    }
}
