import Foundation
import Glibc
import Knob
import Motion
import Streaming
import Testing
import TiltdTestSupport

/// Real-time pacing, and a replay run as a service of the lifecycle.
@Suite struct PacedReplayTests {
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
        let clock = ContinuousClock()
        let start = clock.now
        try await PacedReplay(readings: readings).play(into: run, clock: clock)
        let elapsed = clock.now - start
        #expect(collector.states == Self.fastStates(readings))
        // Sleeps never end early: the 0.3 s the timestamps span is a lower bound.
        #expect(elapsed >= .milliseconds(300))
    }

    /// Collects states and cancels the task that emits them once it has `limit`.
    final class CancellingCollector: StateSink, @unchecked Sendable {
        // Safe: used only by the one task that plays into it.
        private(set) var states: [KnobState] = []
        let limit: Int

        init(limit: Int) {
            self.limit = limit
        }

        func emit(_ state: KnobState) {
            states.append(state)
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
        let task = Task { try await PacedReplay(readings: readings, loop: true).play(into: run) }
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
        let replay = ReplayService(readings: readings, sampleRun: run, pacing: .realTime(loop: false))
        try await Lifecycle.withoutSignals.run([server, replay])
        // The replay ended, so the server was shut down after it: every state
        // went out, then end of stream, and the file is gone.
        let received = client.readLines(quietFor: 10)
        #expect(received == Self.fastStates(readings).map { String($0.jsonLine.dropLast()) })
        #expect(client.sawEndOfStream(timeout: 10))
        #expect(access(dir + "/s.sock", F_OK) != 0)
        #expect(access(dir + "/s.sock.lock", F_OK) != 0)
    }
}
