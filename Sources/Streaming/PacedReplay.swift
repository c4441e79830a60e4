import Motion

/// Real-time pacing, written once: feeds a recording's readings to a
/// `SampleRun` at the moments their timestamps say, relative to the first
/// (`tiltd replay` with `Setting.realtime`, `tiltd serve` with `Setting.replay`).
///
/// Deadlines are absolute (start + offset on the continuous clock), so the
/// time spent processing never accumulates into drift; a timestamp that goes
/// backwards is processed at once rather than waited for. The readings come
/// either from memory (which can loop) or block by block from a reader, so a
/// recording of any length, or a pipe, is paced in bounded memory.
public struct PacedReplay: Sendable {
    private let source: ReplaySource
    /// Start over when the recording ends, with a fresh pipeline each pass
    /// (only for readings in memory: a stream cannot be read twice).
    public let loop: Bool

    /// One pass over `source`; `loop` applies only to `.readings`.
    public init(source: ReplaySource, loop: Bool = false) {
        self.source = source
        if case .readings = source { self.loop = loop } else { self.loop = false }
    }

    /// How long a pass of a looped recording lasts at least when its
    /// timestamps span no time (one reading, or all at one instant): it is
    /// played once a second instead of as fast as the core can.
    public static let shortestPassNanoseconds: Int64 = 1_000_000_000

    /// Plays the readings into `run` until they end (without `loop`).
    ///
    /// A looped pass lasts as long as the recording's span plus one mean
    /// sampling interval (so the first reading of a pass does not land on
    /// the last of the one before), and never less than
    /// `shortestPassNanoseconds` for a recording that spans no time.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (it stops at
    ///   once), or what the block source throws (a bad line in a stream).
    public func play<C: Clock>(into run: SampleRun, clock: C = ContinuousClock()) async throws
    where C.Duration == Duration {
        var passStart: C.Instant?
        while true {
            var origin: (firstNanoseconds: Int64, start: C.Instant)?
            var last: Int64 = 0
            var count = 0
            let blocks = source.makeBlocks()
            while let block = try blocks() {
                for reading in block {
                    let pace = origin ?? (reading.timestampNanoseconds, passStart ?? clock.now)
                    origin = pace
                    let offsetNanoseconds = Nanoseconds.difference(reading.timestampNanoseconds, pace.firstNanoseconds)
                    if offsetNanoseconds > 0 {
                        try await clock.sleep(until: pace.start.advanced(by: .nanoseconds(offsetNanoseconds)),
                                              tolerance: nil)
                    }
                    try Task.checkCancellation()
                    run.process(reading)
                    last = max(last, offsetNanoseconds)
                    count += 1
                }
            }
            guard loop, let origin else { return }
            let passNanoseconds = last > 0 && count > 1
                ? last + last / Int64(count - 1)
                : Self.shortestPassNanoseconds
            let next = origin.start.advanced(by: .nanoseconds(passNanoseconds))
            try await clock.sleep(until: next, tolerance: nil)
            try Task.checkCancellation()
            passStart = next
            run.restart()
        }
    }
}
