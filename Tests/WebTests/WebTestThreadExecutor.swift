import Foundation

/// A task executor that runs each job on a new thread: test code that
/// blocks (poll(2), waiting for a child process) runs there instead of on
/// Swift's small cooperative pool, which the in-process servers need.
final class WebTestThreadExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
