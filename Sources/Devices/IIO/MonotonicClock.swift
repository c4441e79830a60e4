import Motion
#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC: unaffected by clock changes, the clock live samples use.
public enum MonotonicClock {
    /// Now, in nanoseconds.
    @inline(__always)
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Sleeps until an absolute time, so that periodic work does not drift
    /// by the time each iteration takes (`clock_nanosleep` with TIMER_ABSTIME).
    public static func sleep(untilNanoseconds deadline: Int64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
