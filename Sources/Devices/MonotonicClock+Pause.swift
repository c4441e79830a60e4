extension MonotonicClock {
    /// Sleeps `seconds`, in slices of at most 50 ms so that `stop` becoming
    /// true ends the wait promptly (a capture told to stop while it backs off).
    public static func pause(seconds: Double, unless stop: () -> Bool) {
        let end = nanoseconds() + Int64(seconds * 1e9)
        while !stop() && nanoseconds() < end {
            sleep(untilNanoseconds: min(end, nanoseconds() + 50_000_000))
        }
    }
}
