import Motion

/// Real-time pacing, written once: feeds a recording's readings to a
/// `SampleRun` at the moments their timestamps say, relative to the first
/// (`tiltd replay --realtime`, `tiltd serve --replay`).
///
/// Deadlines are absolute (start + offset on the continuous clock), so the
/// time spent processing never accumulates into drift; a timestamp that goes
/// backwards is processed at once rather than waited for.
public struct PacedReplay: Sendable {
    public let readings: [Reading]
    /// Start over when the recording ends, with a fresh pipeline each pass.
    public let loop: Bool

    public init(readings: [Reading], loop: Bool = false) {
        self.readings = readings
        self.loop = loop
    }

    /// Plays the readings into `run` until they end (without `loop`).
    ///
    /// - Throws: `CancellationError` when the task is cancelled (it stops at once).
    public func play(into run: SampleRun, clock: ContinuousClock = ContinuousClock()) async throws {
        guard let first = readings.first else { return }
        while true {
            let start = clock.now
            for reading in readings {
                let offsetNanoseconds = reading.timestampNanoseconds &- first.timestampNanoseconds
                if offsetNanoseconds > 0 {
                    try await clock.sleep(until: start.advanced(by: .nanoseconds(offsetNanoseconds)), tolerance: nil)
                }
                run.process(reading)
            }
            guard loop else { return }
            try Task.checkCancellation()
            run.restart()
        }
    }
}
