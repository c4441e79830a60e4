import Knob
import Motion
import SamplePath
import Testing
import TiltdTestSupport
import Traces

/// The one sample path: readings → pipeline → states → sink, and its one
/// diagnostic policy.
@Suite(.timeLimit(.minutes(2))) struct SampleRunTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path

    /// Still, face up, at 100 Hz from `startNanoseconds`.
    static func still(_ count: Int, from startNanoseconds: Int64 = 0) -> [Reading] {
        (0..<count).map { Reading(timestampNanoseconds: startNanoseconds + Int64($0) * 10_000_000,
                                  acceleration: SIMD3(0.3, 0.2, 9.8)) }
    }

    @Test func statesAreThePipelinesStatesInOrder() throws {
        let readings = try Recording.load(path: Self.recording).readings
        var pipeline = TiltPipeline(configuration: PipelineConfiguration())
        let expected = readings.compactMap { pipeline.process($0).map(KnobState.init(tilt:)) }
        let collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector,
                            reporter: DiagnosticReporter(subject: "test"))
        run.process(readings)
        run.finish()
        #expect(expected.count > 100)
        #expect(collector.states == expected)
        #expect(run.stateCount == expected.count)
    }

    @Test func eachDiagnosticKindIsShownOnceAndTheRestCounted() {
        let log = LogCapture()
        let collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector,
                            reporter: DiagnosticReporter(subject: "rec.csv", logger: log.logger))
        // Three times the clock jumps back by a second.
        var readings = Self.still(20)
        for jump in 1...3 { readings += Self.still(5, from: -Int64(jump) * 1_000_000_000) }
        run.process(readings)
        #expect(log.lines.count == 1, "\(log.lines)")
        #expect(log.lines.first?.hasPrefix("tiltd: warning: rec.csv: timestamp went backwards") == true)
        run.finish()
        #expect(log.lines.last == "tiltd: warning: rec.csv: 2 more backwards-timestamp warnings not shown")
    }

    @Test func restartGivesEachPassTheSameStates() {
        let readings = Self.still(50)
        let collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: collector,
                            reporter: DiagnosticReporter(subject: nil))
        run.process(readings)
        let firstPass = collector.states
        run.restart()
        run.process(readings)
        #expect(!firstPass.isEmpty)
        #expect(Array(collector.states.suffix(firstPass.count)) == firstPass,
                "a fresh pipeline: the second pass does not see the jump back to t = 0")
    }
}
