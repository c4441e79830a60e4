import CPlatform
import Glibc

/// A named POSIX thread that runs one closure and ends: the blocking loops
/// (device capture, the D-Bus service) that must never run on a task's thread.
///
/// Plain pthreads rather than Foundation's `Thread`, so that `tiltd run`
/// links no Foundation (its resident memory).
public enum DetachedThread {
    /// The longest thread name the kernel keeps, in bytes (`TASK_COMM_LEN`
    /// is 16 including the terminating NUL).
    public static let maximumNameBytes = 15

    /// Starts `body` on a new detached thread called `name` (shown by `ps -L`,
    /// `top -H` and in `/proc/PID/task/TID/comm`; cut to
    /// `maximumNameBytes`).
    ///
    /// The corresponding C functions are `pthread_create` and
    /// `prctl(PR_SET_NAME)` (what `pthread_setname_np` does for the calling thread).
    ///
    /// - Returns: opened once `body` has returned: `await` its `wait()` to
    ///   join the thread without blocking a task's thread.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Latch {
        let finished = Latch()
        let start = Unmanaged.passRetained(Start(name: String(decoding: name.utf8.prefix(maximumNameBytes),
                                                              as: UTF8.self), body: body, finished: finished))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            _ = tiltd_name_this_thread(start.name)
            start.body()
            start.finished.open()
            return nil
        }, start.toOpaque())
        guard result == 0 else {
            start.release()
            // Only when the process is out of threads or memory; nothing can go on without it.
            fatalError("cannot start thread \(name): \(String(cString: strerror(result)))")
        }
        return finished
    }

    /// What the new thread runs, handed over through `pthread_create`'s argument.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        let finished: Latch

        init(name: String, body: @escaping @Sendable () -> Void, finished: Latch) {
            self.name = name
            self.body = body
            self.finished = finished
        }
    }
}
