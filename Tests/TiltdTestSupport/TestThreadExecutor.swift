import Foundation

/// A task executor that runs each job on a new thread: test code that
/// blocks (poll(2), waiting for a child process, reading a socket) runs
/// there instead of on Swift's small cooperative pool (two threads on a
/// two-core machine), which the in-process servers of other suites need:
/// every suite runs in the one test process.
public final class TestThreadExecutor: TaskExecutor {
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }

    /// Runs blocking `work` on a new thread and waits for it without
    /// holding a cooperative thread.
    ///
    /// The work stays in the test's own task (on a thread of its own, by
    /// executor preference), so its `#expect` failures are the test's.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(TestThreadExecutor()) { try work() }
    }
}
