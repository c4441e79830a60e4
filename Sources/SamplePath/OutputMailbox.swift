import Glibc
import Motion
import Platform
import Synchronization

/// Bytes bound for one descriptor, written by a thread of their own, so
/// that the producer (the capture thread, a paced replay) never waits on
/// whoever reads that descriptor: a pipe into a program that stopped
/// reading (`| less`, a terminal's Ctrl-S) holds up the writer thread only,
/// and every other consumer goes on.
///
/// The mailbox holds at most `capacity` bytes. What does not fit is dropped
/// whole (a line is never torn) and counted: the first drop of a burst, and
/// its count when bytes fit again, are reported once each. A failed write (the reader
/// went away) is reported once and ends the writing; later bytes are
/// dropped uncounted.
final class OutputMailbox: @unchecked Sendable {
    // Safe to share: the queue is a Mutex; the semaphores are process-local
    // POSIX semaphores, made in init and destroyed in deinit, after the
    // writer thread has ended or been given up on (its `finished`).

    /// What the mailbox reports, on its writer's thread or the producer's.
    enum Event: Equatable {
        /// A line did not fit: the reader is behind (first of a burst).
        case droppingStarted
        /// Bytes fit again, after `count` offers were dropped.
        case droppingEnded(count: Int)
        /// write(2) failed with this errno; nothing more is written.
        case failed(Int32)
    }

    private struct Queue {
        var pending: [UInt8] = []
        /// The writer waits on `wake` (the next offer posts it).
        var writerIdle = true
        var closed = false
        var failed = false
        var droppedInBurst = 0
    }

    let capacity: Int
    /// What the queue holds room for at first; a larger capacity (a
    /// recorder's) is grown into only while the reader is behind.
    static let initialBytes = 64 * 1024
    private let descriptor: Int32
    private let queue = Mutex(Queue())
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let report: @Sendable (Event) -> Void
    /// Opened when the writer thread has returned.
    private var finished = Latch()

    /// Starts the writer thread.
    ///
    /// - Parameters:
    ///   - descriptor: where to write (not closed here).
    ///   - capacity: bytes held for a reader that is behind.
    ///   - report: told of drops and of a failure (any thread; must not block).
    init(descriptor: Int32, capacity: Int = 64 * 1024, name: String = "tiltd.stdout",
         report: @escaping @Sendable (Event) -> Void) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.report = report
        sem_init(wake, 0, 0)
        queue.withLock { $0.pending.reserveCapacity(min(capacity, OutputMailbox.initialBytes)) }
        // The thread holds the mailbox until it returns: one abandoned in
        // write(2) keeps its semaphore alive.
        let retained = Unmanaged.passRetained(self)
        finished = DetachedThread.start(name: name) { retained.takeRetainedValue().writeLoop() }
    }

    deinit {
        // Destroyed only once the writer has returned (close waits for it;
        // an abandoned writer keeps the mailbox alive: see `close`).
        sem_destroy(wake)
        wake.deallocate()
    }

    /// Offers dropped for want of room, since the start.
    var droppedTotal: Int { dropped.load(ordering: .relaxed) }
    private let dropped = Atomic<Int>(0)

    /// Hands `bytes` to the writer without waiting.
    ///
    /// - Returns: false when they were dropped (no room, closed or failed).
    @discardableResult
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        enum Outcome { case queued(post: Bool, afterDropping: Int), dropped(first: Bool), refused }
        let outcome = queue.withLock { queue -> Outcome in
            if queue.closed || queue.failed { return .refused }
            guard queue.pending.count + bytes.count <= capacity else {
                queue.droppedInBurst += 1
                return .dropped(first: queue.droppedInBurst == 1)
            }
            queue.pending.append(contentsOf: bytes)
            let post = queue.writerIdle, dropped = queue.droppedInBurst
            queue.writerIdle = false
            queue.droppedInBurst = 0
            return .queued(post: post, afterDropping: dropped)
        }
        switch outcome {
        case .queued(let post, let dropped):
            if post { sem_post(wake) }
            if dropped > 0 { report(.droppingEnded(count: dropped)) }
            return true
        case .dropped(let first):
            dropped.add(1, ordering: .relaxed)
            if first { report(.droppingStarted) }
            return false
        case .refused:
            return false
        }
    }

    /// Lets the writer finish what is queued and end, waiting for it until
    /// `limit` has passed: a reader that stopped reading may never take the
    /// rest, and a stop must not wait on it (the writer is then abandoned,
    /// blocked in write(2), and ends with the process). Idempotent.
    ///
    /// - Returns: true when everything queued was written.
    @discardableResult
    func close(waitingAtMost limit: Duration) async -> Bool {
        requestClose()
        let finished = self.finished
        let first = FirstAnswer()
        return await withCheckedContinuation { continuation in
            first.set(continuation)
            // Neither task is awaited: the writer may never end.
            Task {
                await finished.wait()
                first.answer(true)
            }
            Task {
                try? await Task.sleep(for: limit)
                first.answer(false)
            }
        }
    }

    /// `close(waitingAtMost:)` for a thread of the caller's own, which it
    /// blocks (looking every 2 ms) instead of relying on Swift's cooperative
    /// threads.
    ///
    /// - Returns: true when everything queued was written.
    func closeBlocking(waitingAtMost limit: Duration) -> Bool {
        requestClose()
        let deadline = ContinuousClock.now + limit
        while !finished.isOpen {
            guard ContinuousClock.now < deadline else { return false }
            usleep(2_000)
        }
        return true
    }

    /// Asks the writer to end once it has written what is queued, without
    /// waiting for it (any thread). Idempotent.
    func requestClose() {
        let post = queue.withLock { queue -> Bool in
            queue.closed = true
            defer { queue.writerIdle = false }
            return queue.writerIdle
        }
        if post { sem_post(wake) }
    }

    /// The writer thread: waits for bytes and writes them all.
    private func writeLoop() {
        var batch: [UInt8] = []
        batch.reserveCapacity(min(capacity, OutputMailbox.initialBytes))
        do {
            while true {
                while sem_wait(wake) != 0 && errno == EINTR {}
                while true {
                    let closed = queue.withLock { queue -> Bool in
                        if queue.pending.isEmpty {
                            queue.writerIdle = true
                            return queue.closed
                        }
                        swap(&batch, &queue.pending)
                        return false
                    }
                    if batch.isEmpty {
                        if closed { return }
                        break
                    }
                    let error = batch.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
                    batch.removeAll(keepingCapacity: true)
                    if error != 0 {
                        queue.withLock { queue in
                            queue.failed = true
                            queue.pending.removeAll()
                        }
                        report(.failed(error))
                        return
                    }
                }
            }
        }
    }
}

/// Resumes a continuation with the first of several answers.
private final class FirstAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func answer(_ value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
