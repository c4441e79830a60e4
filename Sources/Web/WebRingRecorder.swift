import Controls
import Foundation
import Logging
import Motion
import NIOCore
import NIOPosix
import Platform
import Synchronization
import Wording

/// `tiltd serve` with `Setting.recordDir` DIR: the page's Spark ring (CONTROLS.md §2)
/// recording the live motion while a viewer holds it (docs/controls.md).
///
/// Every reading that arrives while the ring is held goes into one trace in
/// DIR (`WebRecordingFile`: partial file, renamed when done); each hold
/// after the first starts with a `g` mark, so a replay sees where the
/// recording paused. The ring's duration is the record limit: when a hold
/// fills it the recording ends at once (a timer, not the next reading),
/// and a viewer's "finish" ends it early. A finished trace is offered for
/// download (`/recordings/NAME`) and "reset" starts a new ring; reset and
/// shutdown finish a trace still open first, so nothing recorded is lost.
///
/// The directory is capped (`WebRecordingDirectory`): after each finished
/// trace the oldest of the ring's traces there are deleted until the newest
/// `keep` remain within `maximumBytes`.
///
/// Several viewers share the one ring. The viewer that pressed holds it:
/// presses from others are ignored while it is held, only the holder's
/// release (or its leaving the page) ends the hold, and every viewer sees
/// the ring grow through the `ring` channel (`WebStateFeed.post`).
///
/// Thread-safe: readings come from the capture thread or the replay task,
/// input from the server's event loops.
public final class WebRingRecorder: Sendable {
    /// A viewer: one WebSocket connection of the page.
    public typealias Viewer = UInt64

    public let directory: String
    public let limitSeconds: Double
    /// The cap on the directory's finished traces.
    let cap: WebRecordingDirectory
    /// Finished traces kept without `Setting.recordKeep`.
    public static let defaultKeep = WebRecordingDirectory.defaultKeep
    /// Mebibytes the finished traces may take without `Setting.recordMaxMib`.
    public static let defaultMaximumMebibytes = WebRecordingDirectory.defaultMaximumMebibytes
    /// Holds a ring accepts (zero-length taps count): bounds what one
    /// client can make the ring and its streamed field hold.
    public static let maximumHolds = 64
    /// Finished traces offered for download, newest last.
    public static let maximumOffered = 16

    struct Shared {
        var ring: RecordingRing
        /// Bumped by every change viewers must see.
        var revision: UInt64 = 0
        /// The ring's number since start (a reset starts the next).
        var generation: UInt64 = 1
        var holder: Viewer?
        /// Samples written in the current hold.
        var holdSamples = 0
        var file: WebRecordingFile?
        /// The ring was finished (limit, finish, or a failure): presses are ignored until a reset.
        var closed = false
        /// Finished traces, newest last, at most `maximumOffered`.
        var offered: [String] = []
        /// The last thing worth telling viewers ("recorded 4.5 s to …", an error).
        var message = ""
        var header: TraceHeader
        /// A trace was finished since the directory was last pruned.
        var needsPrune = false
        /// Recordings finished under the lock, to be completed outside it.
        var toComplete: [WebRecordingFile] = []
    }

    let shared: Mutex<Shared>
    private let clock: WebRingClock
    private let publish: @Sendable (String) -> Void
    let logger: Logger
    /// Held while pruning, so that two prunes never race.
    private let pruning = Mutex(())
    /// The threads completing finished recordings (each one's end), by number.
    private let completing = Mutex<(next: UInt64, threads: [UInt64: Latch])>((0, [:]))

    /// - Parameters:
    ///   - directory: where traces go (must exist and be writable: see `checkDirectory`).
    ///   - limitSeconds: the ring's duration, the longest recording.
    ///   - keep: the most finished traces kept in `directory`.
    ///   - maximumMebibytes: the most MiB they take together (the newest is kept whatever its size).
    ///   - header: the trace header (the source's metadata); a gyro header
    ///     is added when the readings carry rates and it has none.
    ///   - publish: called with the ring's JSON after every change (the page's `ring` channel).
    ///   - clock: the ring's time and the timer that ends a hold at the limit (tests pass their own).
    public init(directory: String, limitSeconds: Double, keep: Int = defaultKeep,
                maximumMebibytes: Int = defaultMaximumMebibytes, header: TraceHeader, logger: Logger,
                clock: WebRingClock = .system(),
                publish: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.directory = directory
        self.limitSeconds = limitSeconds
        cap = WebRecordingDirectory(path: directory, keep: max(1, keep), maximumBytes: Int64(max(1, maximumMebibytes)) << 20)
        self.publish = publish
        self.logger = logger
        shared = Mutex(Shared(ring: RecordingRing(durationSeconds: limitSeconds, seed: 1), header: header))
        publish(json())
    }

    /// Seconds on the ring's clock.
    var nowSeconds: Double { clock.now() / .seconds(1) }

    /// A viewer presses the ring: a new hold starts unless the ring is
    /// held, complete, finished or out of holds.
    public func press(by viewer: Viewer) {
        var deadline: Double?
        var generation: UInt64 = 0
        change { shared, now in
            guard !shared.closed, shared.holder == nil, shared.ring.segments.count < Self.maximumHolds else { return false }
            shared.ring.press(atSeconds: now)
            guard case let .holding(startSeconds, used) = shared.ring.phase else { return false }
            shared.holder = viewer
            shared.holdSamples = 0
            shared.message = ""
            deadline = startSeconds + limitSeconds * (1 - used)
            generation = shared.generation
            return true
        }
        guard let deadline else { return }
        // The limit ends the hold on time even when no reading arrives.
        clock.schedule(.nanoseconds(Int64(max(0, deadline - nowSeconds) * 1e9))) { [self, generation] in
            tick(generation: generation)
        }
    }

    /// The holder lifts its finger (or pointer); others' releases do nothing.
    public func release(by viewer: Viewer) {
        change { shared, now in
            guard shared.holder == viewer else { return false }
            shared.ring.release(atSeconds: now)
            shared.holder = nil
            if shared.ring.isComplete { Self.finish(&shared) }
            return true
        }
    }

    /// Ends the recording now (nothing while the ring is held).
    public func finish(by viewer: Viewer) {
        change { shared, _ in
            guard shared.holder == nil, !shared.closed, !shared.ring.segments.isEmpty else { return false }
            Self.finish(&shared)
            return true
        }
    }

    /// A new, empty ring, the current trace finished first (nothing while held).
    public func reset(by viewer: Viewer) {
        change { shared, _ in
            guard shared.holder == nil, !shared.ring.segments.isEmpty || shared.closed else { return false }
            if !shared.closed { Self.finish(&shared) }
            shared.generation += 1
            shared.ring = RecordingRing(durationSeconds: limitSeconds, seed: shared.generation)
            shared.closed = false
            return true
        }
    }

    /// Shutting down: a hold ends and the trace gets its final name; returns
    /// once every finished recording is complete.
    public func shutdown() async {
        change { shared, now in
            guard shared.file != nil || shared.holder != nil else { return false }
            if shared.holder != nil {
                shared.ring.release(atSeconds: now)
                shared.holder = nil
            }
            Self.finish(&shared)
            return true
        }
        await completed()
    }

    /// Returns once every recording finished so far is complete: written
    /// whole, named and offered (or found empty and removed).
    public func completed() async {
        while true {
            let pending = completing.withLock { Array($0.threads.values) }
            if pending.isEmpty { return }
            for thread in pending { await thread.wait() }
        }
    }

    /// Completes `file` on a thread of its own (it may wait for the disk;
    /// Swift's cooperative threads are not held up meanwhile).
    private func startCompleting(_ file: WebRecordingFile) {
        completing.withLock { state in
            let id = state.next
            state.next += 1
            state.threads[id] = DetachedThread.start(name: "tiltd.ring") { [self] in
                complete(file)
                _ = completing.withLock { $0.threads.removeValue(forKey: id) }
            }
        }
    }

    /// Takes one reading of the live motion: recorded while the ring is held.
    public func record(_ reading: Reading) {
        change { shared, now in
            guard shared.holder != nil else { return false }
            shared.ring.advance(toSeconds: now)
            if shared.ring.isComplete {
                // Past the limit: this reading came after the ring filled.
                shared.holder = nil
                Self.finish(&shared)
                return true
            }
            do {
                try Self.write(reading, into: &shared, directory: directory, logger: logger)
            } catch {
                shared.holder = nil
                shared.ring.release(atSeconds: now)
                shared.message = "recording stopped: \(error)"
                logger.error("\(shared.message)")
                Self.finish(&shared)
                return true
            }
            return false
        }
    }

    /// The names of the finished traces offered for download.
    public var offered: [String] { shared.withLock { $0.offered } }

    /// The ring as the model has it now (for tests and the page's JSON).
    public var ring: RecordingRing {
        let now = nowSeconds
        return shared.withLock { shared in
            var ring = shared.ring
            ring.advance(toSeconds: now)
            return ring
        }
    }

    /// The limit's timer: completes a hold that reached it.
    private func tick(generation: UInt64) {
        change { shared, now in
            guard shared.generation == generation, shared.holder != nil else { return false }
            shared.ring.advance(toSeconds: now)
            guard shared.ring.isComplete else { return false }
            shared.holder = nil
            Self.finish(&shared)
            return true
        }
    }

    /// Runs `body` under the lock with the time on the ring's clock; when it
    /// reports a change, bumps the revision and publishes the ring. Outside
    /// the lock, recordings it finished are handed to threads that complete
    /// them, and when a trace was completed the directory is pruned to its cap.
    func change(_ body: (inout Shared, _ nowSeconds: Double) -> Bool) {
        let now = nowSeconds
        let (text, prune, finished) = shared.withLock { shared -> (String?, Bool, [WebRecordingFile]) in
            guard body(&shared, now) else { return (nil, false, []) }
            shared.revision += 1
            defer { (shared.needsPrune, shared.toComplete) = (false, []) }
            return (Self.json(shared, nowSeconds: now), shared.needsPrune, shared.toComplete)
        }
        if let text { publish(text) }
        for file in finished { startCompleting(file) }
        if prune { pruneDirectory() }
    }

    /// Deletes the oldest traces past the cap, and stops offering them.
    func pruneDirectory() {
        let (removed, failure) = pruning.withLock { _ in cap.prune() }
        if let failure { logger.warning("\(failure)") }
        guard !removed.isEmpty else { return }
        shared.withLock { $0.offered.removeAll { removed.contains($0) } }
        logger.notice("""
            deleted the \(removed.count == 1 ? "oldest recording" : "\(removed.count) oldest recordings") in \(directory) \
            to keep the newest \(cap.keep) within \(cap.maximumBytes >> 20) MiB (\(Setting.recordKeep), \(Setting.recordMaxMib)): \
            \(removed.joined(separator: ", "))
            """)
    }
}

/// The ring's time since it was made, and a timer: the system's, or a
/// test's own.
public struct WebRingClock: Sendable {
    /// Time since the ring was made.
    public var now: @Sendable () -> Duration
    /// Runs the action once the delay has passed (any thread).
    public var schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    public init(now: @escaping @Sendable () -> Duration,
                schedule: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void) {
        self.now = now
        self.schedule = schedule
    }

    /// The continuous clock, and an event-loop timer rather than a sleeping
    /// task: Swift's cooperative pool is two threads on a two-core machine,
    /// and a task's wake-up can wait behind whatever holds them.
    public static func system() -> WebRingClock {
        let start = ContinuousClock.now
        return WebRingClock(now: { ContinuousClock.now - start }, schedule: { delay, action in
            MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(delay)) { action() }
        })
    }
}
