import Motion
import ServiceLifecycle
import Synchronization

/// A recording played through a `SampleRun` as a service of the lifecycle,
/// paced to its timestamps (`replay` with `Setting.realtime`, `serve` with
/// `Setting.replay`), stopping early on SIGINT, SIGTERM or SIGHUP.
public final class ReplayService: Service, @unchecked Sendable {
    // Safe to share: the source and the SampleRun are used only by this
    // service's one `run()`; `stoppedEarly` is atomic.

    private let replay: PacedReplay
    private let sampleRun: SampleRun
    private let holdAtEnd: Bool
    private let stopped = Atomic<Bool>(false)

    /// - Parameters:
    ///   - source: the recording, in memory or streamed.
    ///   - sampleRun: the path the readings take.
    ///   - loop: start over at the end (a recording in memory only).
    ///   - holdAtEnd: after the last reading, keep running until shut down
    ///     (the web page keeps showing the last state); otherwise the run
    ///     ending ends the service (and the process).
    public init(source: ReplaySource, sampleRun: SampleRun, loop: Bool = false, holdAtEnd: Bool = false) {
        self.replay = PacedReplay(source: source, loop: loop)
        self.sampleRun = sampleRun
        self.holdAtEnd = holdAtEnd
    }

    /// True when a shutdown (a signal) stopped the replay before its end.
    public var stoppedEarly: Bool { stopped.load(ordering: .acquiring) }

    public func run() async throws {
        let replay = self.replay, run = sampleRun
        do {
            try await cancelWhenGracefulShutdown { try await replay.play(into: run) }
        } catch is CancellationError {
            // Stopped by a signal: what was emitted so far stands.
            stopped.store(true, ordering: .releasing)
        }
        sampleRun.finish()
        if holdAtEnd {
            try? await gracefulShutdown()
        }
    }
}
