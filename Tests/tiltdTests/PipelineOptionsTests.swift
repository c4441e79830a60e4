import Commands
import Motion
import Testing
import Wording

/// The command line's pipeline options become a configuration here, each
/// bad value refused in one line naming its option.
@Suite(.timeLimit(.minutes(15))) struct PipelineOptionsTests {
    static func make(cutoff: Double = 6, threshold: Double? = nil, knobRadius: Double? = nil,
                     neutral: String? = nil, shakeBand: Double = 0.5,
                     gyroTimeConstant: Double = 3) throws(SettingError) -> PipelineConfiguration {
        try PipelineConfiguration(cutoffHertz: cutoff, threshold: threshold, knobRadiusPixels: knobRadius,
                                  gateEnabled: true, screenOrientation: .fixed(.normal), neutral: neutral,
                                  shakeBand: shakeBand, gyroEnabled: true, gyroTimeConstantSeconds: gyroTimeConstant)
    }

    @Test func theDefaultsAreTheLibrarysDefaults() throws {
        #expect(try Self.make() == PipelineConfiguration())
    }

    @Test func theThresholdComesFromTheKnobRadiusWhenNotGiven() throws {
        #expect(try Self.make(knobRadius: 100).threshold == ChangeGate.threshold(knobRadiusPixels: 100))
        #expect(try Self.make(threshold: 0.01).threshold == 0.01)
    }

    @Test func neutralIsParsed() throws {
        #expect(try Self.make(neutral: "auto").neutral == .auto)
        #expect(try Self.make(neutral: "0,1.5708").neutral == .fixed(roll: 0, pitch: 1.5708))
    }

    /// Option values and the message they must give.
    struct Bad: Sendable, CustomTestStringConvertible {
        var cutoff = 5.0, threshold: Double? = nil, knobRadius: Double? = nil, neutral: String? = nil
        var shakeBand = 0.5, gyroTimeConstant = 1.0
        var message: SettingMessage
        var testDescription: String { message.description }
    }

    @Test(arguments: [
        Bad(cutoff: 0, message: "\(.cutoff) must be a positive frequency in Hz, got 0.0"),
        Bad(threshold: -1, message: "\(.threshold) must be a non-negative angle in radians, got -1.0"),
        Bad(threshold: 0.1, knobRadius: 3, message: "give either \(.threshold) or \(.knobRadius), not both"),
        Bad(knobRadius: .nan, message: "\(.knobRadius) must be a positive number of pixels, got nan"),
        Bad(shakeBand: 0, message: "\(.shakeBand) must be a positive fraction such as 0.5, got 0.0"),
        Bad(gyroTimeConstant: .infinity, message: "\(.gyroTimeConstant) must be a positive number of seconds, got inf"),
        Bad(neutral: "up", message: "\(.neutral) must be 'auto' or ROLL,PITCH in radians such as 0,1.5708; got 'up'"),
    ])
    func badValuesAreNamed(bad: Bad) {
        #expect(throws: SettingError(bad.message)) {
            try Self.make(cutoff: bad.cutoff, threshold: bad.threshold, knobRadius: bad.knobRadius, neutral: bad.neutral,
                          shakeBand: bad.shakeBand, gyroTimeConstant: bad.gyroTimeConstant)
        }
    }

    @Test func screenOrientationArgumentsRoundTrip() {
        for text in ScreenOrientationSetting.argumentTexts {
            #expect(ScreenOrientationSetting(argument: text)?.argumentText == text)
        }
        #expect(ScreenOrientationSetting(argument: "auto") == .auto)
        #expect(ScreenOrientationSetting(argument: "left-up") == .fixed(.leftUp))
        #expect(ScreenOrientationSetting(argument: "sideways") == nil)
    }
}
