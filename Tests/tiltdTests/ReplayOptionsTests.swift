import Knob
import Motion
import Testing
import TiltdTestSupport

/// The pipeline options reach the pipeline: `tiltd replay` with options
/// prints exactly what the Motion pipeline configured that way computes.
@Suite struct ReplayOptionsTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    /// The JSON Lines the pipeline gives for the sweep under `configuration`.
    static func expected(_ configuration: PipelineConfiguration) throws -> String {
        var pipeline = TiltPipeline(configuration: configuration)
        var bytes: [UInt8] = []
        for reading in try Recording.load(path: sweep).readings {
            if let tilt = pipeline.process(reading) { KnobState(tilt: tilt).appendJSONLine(to: &bytes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func defaultsMatchTheDefaultConfiguration() throws {
        let result = try TiltdProcess.run(["replay", Self.sweep])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(PipelineConfiguration())))
    }

    @Test func everyOptionReachesTheConfiguration() throws {
        var configuration = PipelineConfiguration()
        configuration.cutoffHertz = 2.5
        configuration.threshold = 1.0 / 72
        configuration.screenOrientation = .fixed(.leftUp)
        configuration.neutral = .fixed(roll: -0.1, pitch: 1.5)
        configuration.gateEnabled = false
        let result = try TiltdProcess.run(["replay", "--cutoff", "2.5", "--knob-radius", "24", "--screen-orientation",
                                           "left-up", "--neutral", "-0.1, 1.5", "--no-gate", Self.sweep])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(configuration)))

        var auto = PipelineConfiguration()
        auto.screenOrientation = .auto
        auto.neutral = .auto
        auto.threshold = 0.01
        let automatic = try TiltdProcess.run(["replay", "--screen-orientation", "auto", "--neutral", "auto",
                                              "--threshold", "0.01", Self.sweep])
        #expect(automatic.status == 0, "\(automatic.stderr)")
        #expect(automatic.stdout == (try Self.expected(auto)))
    }
}
