import Motion
import ServiceLifecycle
import Synchronization

/// A recording played through a `SampleRun` as a service of the lifecycle:
/// as fast as possible or paced to its timestamps, stopping early on SIGINT,
/// SIGTERM or SIGHUP.
public final class ReplayService: Service, @unchecked Sendable {
    // Safe to share: the source and the SampleRun are used only by this
    // service's one `run()`; `stoppedEarly` is atomic.

    /// How the readings are fed.
    public enum Pacing: Sendable {
        /// Every reading at once (`tiltd replay`).
        case asFastAsPossible
        /// At their timestamps (`--realtime`, `serve --replay`), optionally looping.
        case realTime(loop: Bool)
    }

    private let source: ReplaySource
    private let sampleRun: SampleRun
    private let pacing: Pacing
    private let holdAtEnd: Bool
    private let stopped = Atomic<Bool>(false)

    /// - Parameters:
    ///   - source: the recording, in memory or streamed.
    ///   - sampleRun: the path the readings take.
    ///   - pacing: how fast.
    ///   - holdAtEnd: after the last reading, keep running until shut down
    ///     (the web page keeps showing the last state); otherwise the run
    ///     ending ends the service (and the process).
    public init(source: ReplaySource, sampleRun: SampleRun, pacing: Pacing, holdAtEnd: Bool = false) {
        self.source = source
        self.sampleRun = sampleRun
        self.pacing = pacing
        self.holdAtEnd = holdAtEnd
    }

    public convenience init(readings: [Reading], sampleRun: SampleRun, pacing: Pacing, holdAtEnd: Bool = false) {
        self.init(source: .readings(readings), sampleRun: sampleRun, pacing: pacing, holdAtEnd: holdAtEnd)
    }

    /// True when a shutdown (a signal) stopped the replay before its end.
    public var stoppedEarly: Bool { stopped.load(ordering: .acquiring) }

    public func run() async throws {
        switch pacing {
        case .asFastAsPossible:
            if try sampleRun.process(source, stoppingWhen: { Task.isShuttingDownGracefully || Task.isCancelled }) {
                stopped.store(true, ordering: .releasing)
            }
        case .realTime(let loop):
            let replay = PacedReplay(source: source, loop: loop)
            let run = sampleRun
            do {
                try await cancelWhenGracefulShutdown { try await replay.play(into: run) }
            } catch is CancellationError {
                // Stopped by a signal: what was emitted so far stands.
                stopped.store(true, ordering: .releasing)
            }
        }
        sampleRun.finish()
        if holdAtEnd {
            try? await gracefulShutdown()
        }
    }
}
