import Daemon
import Foundation
import Glibc
import Knob
import Motion
import SamplePath
import StateSocket
import Testing
import TiltdTestSupport

/// Real-time pacing, and a replay run as a service of the lifecycle.
@Suite(.timeLimit(.minutes(15))) struct PacedReplayTests {
    /// 0.3 s of readings at 100 Hz rolling slowly, so every reading passes the gate.
    static func rolling(_ count: Int = 31) -> [Reading] {
        (0..<count).map { index in
            let angle = Double(index) * 0.01
            return Reading(timestampNanoseconds: 5_000_000_000 + Int64(index) * 10_000_000,
                           acceleration: SIMD3(9.8 * sin(angle), 0, 9.8 * cos(angle)))
        }
    }

    static func fastStates(_ readings: [Reading]) -> [KnobState] {
        let collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector, reporter: DiagnosticReporter(subject: nil))
        run.process(readings)
        return collector.states
    }

    @Test func pacedReplayGivesTheSameStatesNoEarlierThanTheirTimestamps() async throws {
        let readings = Self.rolling()
        let collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector, reporter: DiagnosticReporter(subject: nil))
        let clock = VirtualClock()
        try await PacedReplay(source: .readings(readings)).play(into: run, clock: clock)
        #expect(collector.states == Self.fastStates(readings))
        // Each state waits for its timestamp: the clock ends 0.3 s (the span) on.
        #expect(clock.now.offset >= .milliseconds(300))
    }

    /// Collects states and cancels the task that emits them once it has `limit`.
    final class CancellingCollector: StateSink, @unchecked Sendable {
        // Safe: used only by the one task that plays into it.
        private(set) var states: [KnobState] = []
        let limit: Int

        init(limit: Int) {
            self.limit = limit
        }

        func emit(_ state: EncodedState) {
            states.append(state.state)
            if states.count == limit { withUnsafeCurrentTask { $0?.cancel() } }
        }
    }

    @Test func loopingStartsOverWithAFreshPipelineUntilCancelled() async throws {
        let readings = Self.rolling(11)
        let once = Self.fastStates(readings)
        // Three passes, then the sink cancels the replay: it must stop there,
        // however the machine schedules it (no deadline to miss).
        let collector = CancellingCollector(limit: 3 * once.count)
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector, reporter: DiagnosticReporter(subject: nil))
        let task = Task { try await PacedReplay(source: .readings(readings), loop: true).play(into: run) }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(collector.states.count == 3 * once.count)
        for pass in 0..<3 {
            #expect(Array(collector.states[(pass * once.count)..<((pass + 1) * once.count)]) == once)
        }
    }

    @Test func aReplayServiceEndsTheGroupAndTheSocketGoesWithIt() async throws {
        let dir = try TestPaths.temporaryDirectory()
        let server = try UnixSocketServer(path: dir + "/s.sock")
        let client = try SocketTestClient(path: server.path)
        #expect(TestPaths.eventually { server.clientCount == 1 })
        let readings = Self.rolling()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: server, reporter: DiagnosticReporter(subject: nil))
        let replay = ReplayService(source: .readings(readings), sampleRun: run)
        try await Lifecycle.withoutSignals.run([server, replay])
        // The replay ended, so the server was shut down after it: every state
        // went out, then end of stream, and the file is gone.
        let received = client.readLines(quietFor: 10)
        #expect(received == Self.fastStates(readings).map { String($0.jsonLine.dropLast()) })
        #expect(client.sawEndOfStream(timeout: 10))
        #expect(access(dir + "/s.sock", F_OK) != 0)
        #expect(access(dir + "/s.sock.lock", F_OK) != 0)
    }

    /// A clock whose sleeps return at once, moving its time to their deadline.
    final class VirtualClock: Clock, @unchecked Sendable {
        // Safe: used by the one task that plays the replay.
        struct Instant: InstantProtocol {
            var offset: Duration
            func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Duration { other.offset - offset }
            static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        }

        var now = Instant(offset: .zero)
        var minimumResolution: Duration { .nanoseconds(1) }
        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try Task.checkCancellation()
            now = max(now, deadline)
        }
    }

    /// A looped recording that spans no time (one
    /// reading) is played once a second, not as fast as a core can.
    @Test func aLoopedRecordingThatSpansNoTimeIsPlayedOnceASecond() async throws {
        let one = Array(Self.rolling(1))
        let collector = CancellingCollector(limit: 5)
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector, reporter: DiagnosticReporter(subject: nil))
        let clock = VirtualClock()
        let task = Task { try await PacedReplay(source: .readings(one), loop: true).play(into: run, clock: clock) }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(collector.states.count == 5)
        // Five passes: four waits of a second between them.
        #expect(clock.now.offset == .seconds(4))
    }

    @Test func loopedPassesFollowEachOneSamplingIntervalApart() async throws {
        let readings = Self.rolling(11)  // 0.1 s at 100 Hz
        let collector = CancellingCollector(limit: 2 * readings.count)
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector, reporter: DiagnosticReporter(subject: nil))
        let clock = VirtualClock()
        let task = Task { try await PacedReplay(source: .readings(readings), loop: true).play(into: run, clock: clock) }
        await #expect(throws: CancellationError.self) { try await task.value }
        // The second pass starts 0.11 s after the first (span 0.1 s plus one
        // 10 ms interval) and its last reading is 0.1 s later.
        #expect(clock.now.offset == .milliseconds(210))
    }
}
