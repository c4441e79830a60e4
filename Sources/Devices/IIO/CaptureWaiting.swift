#if canImport(Glibc)
import Glibc
#endif

/// How a paced buffered capture ends a wait (`CaptureWaiting.wait`).
enum CaptureWaitEnd: Equatable {
    /// The deadline passed.
    case deadline
    /// The buffer has scans to read.
    case readable
    /// `BufferedReader.cancel()` was called.
    case cancelled
}

/// The clock and the waits of a paced buffered capture (`BufferedReader`):
/// the monotonic clock and poll(2) in a run, a virtual clock in tests.
protocol CaptureWaiting: Sendable {
    /// Now on CLOCK_MONOTONIC, in nanoseconds.
    func nanoseconds() -> Int64
    /// Waits until `deadline`, until `readable` (the buffer's descriptor,
    /// nil to wait for the deadline only) has data, or until `cancel` is
    /// readable.
    func wait(untilNanoseconds deadline: Int64, readable: Int32?, cancel: Int32) -> CaptureWaitEnd
}

/// `CaptureWaiting` on CLOCK_MONOTONIC with poll(2).
struct PollWaiting: CaptureWaiting {
    func nanoseconds() -> Int64 { MonotonicClock.nanoseconds() }

    func wait(untilNanoseconds deadline: Int64, readable: Int32?, cancel: Int32) -> CaptureWaitEnd {
        // On the stack: a wait comes with every wake-up.
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors in
            descriptors[0] = pollfd(fd: cancel, events: Int16(POLLIN), revents: 0)
            descriptors[1] = pollfd(fd: readable ?? -1, events: Int16(POLLIN), revents: 0)
            let count = nfds_t(readable == nil ? 1 : 2)
            while true {
                let remaining = deadline - MonotonicClock.nanoseconds()
                if remaining <= 0 { return .deadline }
                // Rounded up, so the wait never ends before the deadline.
                let milliseconds = Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max)))
                let ready = poll(descriptors.baseAddress, count, milliseconds)
                // poll(2) never times out early and the wait was rounded up: no clock read needed.
                if ready == 0 { return .deadline }
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 { return .readable }  // let the read report what is wrong
                if descriptors[0].revents != 0 { return .cancelled }
                if count > 1 && descriptors[1].revents != 0 { return .readable }
            }
        }
    }
}
