import Foundation
import Knob
import Motion
import Testing
import TiltdTestSupport
import Traces

/// The pipeline and recording options reach the pipeline: `tiltd replay`
/// with options prints exactly what the Motion pipeline configured that way
/// computes, and refuses values that cannot apply.
@Suite(.timeLimit(.minutes(15))) struct ReplayOptionsTests {
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

        var gyro = PipelineConfiguration()
        gyro.gyroEnabled = false
        gyro.shakeBand = 0.21
        gyro.fusion.accelerationTimeConstantSeconds = 2
        let fused = try TiltdProcess.run(["replay", "--no-gyro", "--shake-band", "0.21", "--gyro-time-constant", "2",
                                          Self.sweep])
        #expect(fused.status == 0, "\(fused.stderr)")
        #expect(fused.stdout == (try Self.expected(gyro)))
    }

    @Test(arguments: [["--cutoff", "-1"], ["--cutoff", "inf"], ["--threshold", "nan"], ["--knob-radius", "-3"],
                      ["--neutral", "1"], ["--neutral", "1,2,3"], ["--neutral", "a,b"], ["--neutral", "1,inf"],
                      ["--threshold", "0.1", "--knob-radius", "10"], ["--shake-band", "0"],
                      ["--shake-band", "nan"], ["--gyro-time-constant", "-1"], ["--gyro-time-constant", "0"],
                      ["--units", "G"], ["--gyro-units", "rpm"]])
    func invalidValuesAreRejected(arguments: [String]) throws {
        let result = try TiltdProcess.run(["replay"] + arguments + [Self.sweep])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        let options = arguments.filter { $0.hasPrefix("--") }
        #expect(options.contains { result.stderr.contains($0) }, "names the option: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unitsOptionsAcceptTheirNames() throws {
        for arguments in [["--units", "g"], ["--units", "ms2"], ["--gyro-units", "deg"], ["--gyro-units", "rad"]] {
            let result = try TiltdProcess.run(["replay"] + arguments + [Self.sweep])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test func loadErrorsAreOneLine() throws {
        let result = try TiltdProcess.run(["replay", "/nonexistent/recording.csv"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/recording.csv: cannot open"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
