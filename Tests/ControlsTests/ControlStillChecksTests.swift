import Controls
import Knob
import Motion
import Testing

/// `tiltd draw`'s stills, checked in the library: each bad value is named
/// in one line; good ones give images exactly their bounds.
@Suite(.timeLimit(.minutes(2))) struct ControlStillChecksTests {
    @Test(arguments: [
        (10.0, 44.0, 0.5, "0.5,0.5", 0.0, "\(.width) must be 20…2000 points, got 10"),
        (280, 500, 0.5, "0.5,0.5", 0, "\(.height) must be 28…400 points, got 500"),
        (280, 44, 1.5, "0.5,0.5", 0, "\(.value) must be 0…1, got 1.5"),
        (280, 44, 0.5, "0.5", 0, "\(.levels) must be two levels 0…1 as L,R such as 0.8,0.6, got '0.5'"),
        (280, 44, 0.5, "0.5,2", 0, "\(.levels) must be two levels 0…1 as L,R such as 0.8,0.6, got '0.5,2'"),
        (280, 44, 0.5, "0.5,0.5", .infinity, "\(.roll) and \(.pitch) must be finite radians"),
    ] as [(Double, Double, Double, String, Double, SettingMessage)])
    func badSliderValuesAreNamed(width: Double, height: Double, value: Double, levels: String, roll: Double,
                                 message: SettingMessage) {
        let error = #expect(throws: ControlStillError.self) {
            try EQSliderStill(widthPoints: width, heightPoints: height, value: value, levels: levels,
                              rollRadians: roll, pitchRadians: 0)
        }
        #expect(error?.message == message)
    }

    @Test func theSliderStillKeepsItsLevelsAndIsItsBounds() throws {
        let still = try EQSliderStill(widthPoints: 100, heightPoints: 60, value: 1, levels: "0.8, 0.25",
                                      rollRadians: 0.4, pitchRadians: -0.2)
        #expect(still.levels.left == 0.8 && still.levels.right == 0.25)
        let image = still.image(light: .white, scale: 3)
        #expect(image.width == 300 && image.height == 180)
    }

    @Test func badRingValuesAreNamed() {
        for (size, duration, holds, message) in [
            (40.0, 45.0, "", "\(.size) must be 48…2000 points, got 40"),
            (320, 0, "", "\(.duration) must be more than 0 and at most 86400 seconds, got 0.0"),
            (320, 45, "2,-1", "\(.holds) must be seconds ≥ 0 separated by commas such as 2,3.5, got '2,-1'"),
        ] as [(Double, Double, String, SettingMessage)] {
            let error = #expect(throws: ControlStillError.self) {
                try RecordingRingStill(sizePoints: size, durationSeconds: duration, holds: holds, seed: 0)
            }
            #expect(error?.message == message)
        }
    }

    @Test func theRingStillTakesItsHolds() throws {
        let still = try RecordingRingStill(sizePoints: 100, durationSeconds: 10, holds: "2,3.5", seed: 7)
        #expect(still.holdSeconds == [2, 3.5])
        #expect(try RecordingRingStill(sizePoints: 100, durationSeconds: 10, holds: "", seed: 7).holdSeconds.isEmpty)
        let image = still.image(scale: 2)
        #expect(image.width == 200 && image.height == 200)
    }

    @Test func colourParsingAndTracks() throws {
        let opaque = try ColourSlidersStill(colour: "0.2,0.4,0.6", widthPoints: 100, track: nil, trackHeightPoints: 6)
        #expect(opaque.colour == RGBAColour(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        let track = try ColourSlidersStill(colour: "0,0,0,0.5", widthPoints: 100, track: .green, trackHeightPoints: 10)
        #expect(track.colour.alpha == 0.5)
        let image = track.image(scale: 2)
        #expect(image.width == 200 && image.height == 20)
        for (colour, width, height, message) in [
            ("1,1", 100.0, 6.0, "\(.color) must be R,G,B,A (or R,G,B) with each part 0…1 such as 0.2,0.4,0.6,1, got '1,1'"),
            ("1,1,1", 10, 6, "\(.width) must be 28…2000 points, got 10"),
            ("1,1,1", 100, 0.5, "\(.trackHeight) must be 1…100 points, got 0.5"),
        ] as [(String, Double, Double, SettingMessage)] {
            let error = #expect(throws: ControlStillError.self) {
                try ColourSlidersStill(colour: colour, widthPoints: width, track: nil, trackHeightPoints: height)
            }
            #expect(error?.message == message)
        }
    }
}
