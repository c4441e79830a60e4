import Motion
import Testing
@testable import tiltd

/// PipelineOptions and RecordingOptions, shared by replay, run, render and serve.
@Suite struct ReplayOptionsTests {
    @Test func defaultsMatchTheOriginal() throws {
        let configuration = try PipelineOptions.parse([]).makeConfiguration()
        #expect(configuration == PipelineConfiguration())
        #expect(configuration.cutoffHertz == 5)
        #expect(configuration.threshold == 0.0022)
        #expect(configuration.gateEnabled)
        #expect(configuration.screenOrientation == .fixed(.normal))
        #expect(configuration.neutral == .none)
        #expect(configuration.gyroEnabled && configuration.shakeBand == 0.5)
        #expect(configuration.fusion.timeConstantSeconds == 1)
    }

    @Test func negativeNeutralRollNeedsNoEqualsSign() throws {
        let configuration = try PipelineOptions.parse(["--neutral", "-0.1,1.2"]).makeConfiguration()
        #expect(configuration.neutral == .fixed(roll: -0.1, pitch: 1.2))
    }

    @Test func everyOptionReachesTheConfiguration() throws {
        let options = try PipelineOptions.parse(["--cutoff", "2.5", "--knob-radius", "24", "--screen-orientation",
                                                 "left-up", "--neutral", "0.1, 1.5", "--no-gate"])
        let configuration = options.makeConfiguration()
        #expect(configuration.cutoffHertz == 2.5)
        #expect(configuration.threshold == 1.0 / 72)
        #expect(configuration.screenOrientation == .fixed(.leftUp))
        #expect(configuration.neutral == .fixed(roll: 0.1, pitch: 1.5))
        #expect(!configuration.gateEnabled)
        let auto = try PipelineOptions.parse(["--screen-orientation", "auto", "--neutral", "auto",
                                              "--threshold", "0.01"]).makeConfiguration()
        #expect(auto.screenOrientation == .auto && auto.neutral == .auto && auto.threshold == 0.01)
        let gyro = try PipelineOptions.parse(["--no-gyro", "--shake-band", "0.21", "--gyro-time-constant", "2"])
            .makeConfiguration()
        #expect(!gyro.gyroEnabled && gyro.shakeBand == 0.21 && gyro.fusion.timeConstantSeconds == 2)
    }

    @Test(arguments: [["--cutoff", "-1"], ["--cutoff", "inf"], ["--threshold", "nan"], ["--knob-radius", "-3"],
                      ["--neutral", "1"], ["--neutral", "1,2,3"], ["--neutral", "a,b"], ["--neutral", "1,inf"],
                      ["--threshold", "0.1", "--knob-radius", "10"], ["--shake-band", "0"],
                      ["--shake-band", "nan"], ["--gyro-time-constant", "-1"], ["--gyro-time-constant", "0"]])
    func invalidValuesAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try PipelineOptions.parse(arguments) }
    }

    @Test func unitsOption() throws {
        #expect(try RecordingOptions.parse([]).units.units == .metresPerSecondSquared)
        #expect(try RecordingOptions.parse(["--units", "g"]).units.units == .g)
        #expect(throws: (any Error).self) { try RecordingOptions.parse(["--units", "G"]) }
        #expect(try RecordingOptions.parse([]).gyroUnits.units == .radiansPerSecond)
        #expect(try RecordingOptions.parse(["--gyro-units", "deg"]).gyroUnits.units == .degreesPerSecond)
        #expect(throws: (any Error).self) { try RecordingOptions.parse(["--gyro-units", "rpm"]) }
    }

    @Test func loadErrorsAreOneLine() throws {
        let error = #expect(throws: RecordingLoadError.self) {
            try RecordingOptions.parse([]).load("/nonexistent/recording.csv")
        }
        #expect(error?.description.hasPrefix("/nonexistent/recording.csv: cannot open") == true)
        #expect(error?.description.contains("\n") == false)
    }
}
