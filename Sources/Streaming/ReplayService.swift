import Motion
import ServiceLifecycle

/// A recording played through a `SampleRun` as a service of the lifecycle:
/// as fast as possible or paced to its timestamps, stopping early on SIGINT,
/// SIGTERM or SIGHUP.
public final class ReplayService: Service, @unchecked Sendable {
    // Safe to share: every property is immutable; the SampleRun is driven
    // only by this service's one `run()`.

    /// How the readings are fed.
    public enum Pacing: Sendable {
        /// Every reading at once (`tiltd replay`).
        case asFastAsPossible
        /// At their timestamps (`--realtime`, `serve --replay`), optionally looping.
        case realTime(loop: Bool)
    }

    private let readings: [Reading]
    private let sampleRun: SampleRun
    private let pacing: Pacing
    private let holdAtEnd: Bool

    /// - Parameters:
    ///   - readings: the recording.
    ///   - sampleRun: the path the readings take.
    ///   - pacing: how fast.
    ///   - holdAtEnd: after the last reading, keep running until shut down
    ///     (the web page keeps showing the last state); otherwise the run
    ///     ending ends the service (and the process).
    public init(readings: [Reading], sampleRun: SampleRun, pacing: Pacing, holdAtEnd: Bool = false) {
        self.readings = readings
        self.sampleRun = sampleRun
        self.pacing = pacing
        self.holdAtEnd = holdAtEnd
    }

    public func run() async throws {
        switch pacing {
        case .asFastAsPossible:
            sampleRun.process(readings)
        case .realTime(let loop):
            let replay = PacedReplay(readings: readings, loop: loop)
            let run = sampleRun
            do {
                try await cancelWhenGracefulShutdown { try await replay.play(into: run) }
            } catch is CancellationError {
                // Stopped by a signal: what was emitted so far stands.
            }
        }
        sampleRun.finish()
        if holdAtEnd {
            try? await gracefulShutdown()
        }
    }
}
