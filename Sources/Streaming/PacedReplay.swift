import Motion

/// Real-time pacing, written once: feeds a recording's readings to a
/// `SampleRun` at the moments their timestamps say, relative to the first
/// (`tiltd replay --realtime`, `tiltd serve --replay`).
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

    public init(readings: [Reading], loop: Bool = false) {
        self.source = .readings(readings)
        self.loop = loop
    }

    /// One pass over `source`; `loop` applies only to `.readings`.
    public init(source: ReplaySource, loop: Bool = false) {
        self.source = source
        if case .readings = source { self.loop = loop } else { self.loop = false }
    }

    /// Plays the readings into `run` until they end (without `loop`).
    ///
    /// - Throws: `CancellationError` when the task is cancelled (it stops at
    ///   once), or what the block source throws (a bad line in a stream).
    public func play(into run: SampleRun, clock: ContinuousClock = ContinuousClock()) async throws {
        while true {
            var origin: (firstNanoseconds: Int64, start: ContinuousClock.Instant)?
            let blocks = source.makeBlocks()
            while let block = try blocks() {
                for reading in block {
                    let pace = origin ?? (reading.timestampNanoseconds, clock.now)
                    origin = pace
                    let offsetNanoseconds = Nanoseconds.difference(reading.timestampNanoseconds, pace.firstNanoseconds)
                    if offsetNanoseconds > 0 {
                        try await clock.sleep(until: pace.start.advanced(by: .nanoseconds(offsetNanoseconds)),
                                              tolerance: nil)
                    }
                    try Task.checkCancellation()
                    run.process(reading)
                }
            }
            guard loop, origin != nil else { return }
            try Task.checkCancellation()
            run.restart()
        }
    }
}
