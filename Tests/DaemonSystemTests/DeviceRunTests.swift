import Daemon
import Devices
import Foundation
import Knob
import Motion
import SamplePath
import Testing
import TiltdTestSupport
import Traces

/// The capture run in this process, against a umockdev accelerometer that
/// iiod serves on loopback: samples through the sample path to a sink, the
/// trace, the count limit, and a device that cannot be opened.
@Suite(.timeLimit(.minutes(15))) struct DeviceRunTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/iiod")))
    func samplesReachTheSinkAndTheTraceUntilTheCount() async throws {
        let iiod = try IiodServer(device: "buffered.umockdev", script: "steady.script")
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let collector = StateCollector()
        var configuration = PipelineConfiguration()
        configuration.gateEnabled = false
        let log = LogCapture()
        let sampleRun = SampleRun(configuration: configuration, sink: collector,
                                  reporter: DiagnosticReporter(subject: nil, logger: log.logger))
        let run = DeviceRun(capture: CaptureConfiguration(uri: iiod.uri), sampleRun: sampleRun,
                            tracePath: trace.path, count: 3, version: "test", logger: log.logger)
        try await Lifecycle.withoutSignals.run([run])
        #expect(run.samplesRead == 3)
        // steady.script: three scans 10 ms apart from t = 1000 s, every one a state without the gate.
        #expect(collector.states.map(\.tilt.timestampNanoseconds) == [1_000_000_000_000, 1_000_010_000_000, 1_000_020_000_000])
        let recorded = try Recording.load(path: trace.path)
        #expect(recorded.readings.count == 3)
        #expect(recorded.header?.tiltdVersion == "test")
        #expect(log.lines.contains { $0.hasPrefix("tiltd: reading ") && $0.contains("in buffer mode") }, "\(log.lines)")
    }

    @Test func aDeviceThatCannotBeOpenedIsOneLineAndAFailure() async throws {
        let log = LogCapture()
        let run = DeviceRun(capture: CaptureConfiguration(uri: "ip:127.0.0.1:1"), sampleRun: nil,
                            version: "test", logger: log.logger)
        await #expect(throws: ReportedFailure.self) { try await Lifecycle.withoutSignals.run([run]) }
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("ip:127.0.0.1:1") == true, "\(log.lines)")
        #expect(run.samplesRead == 0)
    }

    /// `--duration` ends the run on the run's clock (no device needed: it is
    /// opened on demand, and nobody asks).
    @Test(.timeLimit(.minutes(15))) func theDurationEndsTheRunOnItsClock() async throws {
        let clock = ManualClock()
        let run = DeviceRun(capture: CaptureConfiguration(uri: "ip:127.0.0.1:1"), sampleRun: nil, duration: 5,
                            openAtStart: false, version: "test", logger: LogCapture().logger, clock: clock)
        let running = Task { try await run.run() }
        await clock.sleepers(1)
        clock.advance(by: .seconds(4))
        await clock.sleepers(1)  // not over yet
        clock.advance(by: .seconds(1))
        try await running.value
        #expect(run.samplesRead == 0)
    }
}
