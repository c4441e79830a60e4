import Controls
import Knob
import Testing

/// `tiltd draw`'s stills, checked in the library: each bad value is named
/// in one line; good ones give images exactly their bounds.
@Suite(.timeLimit(.minutes(2))) struct ControlStillChecksTests {
    @Test(arguments: [
        (10.0, 44.0, 0.5, "0.5,0.5", 0.0, .points(10, dimension: .width, minimum: 20, maximum: 2000)),
        (280, 500, 0.5, "0.5,0.5", 0, .points(500, dimension: .height, minimum: 28, maximum: 400)),
        (280, 44, 1.5, "0.5,0.5", 0, .value(1.5)),
        (280, 44, 0.5, "0.5", 0, .levels("0.5")),
        (280, 44, 0.5, "0.5,2", 0, .levels("0.5,2")),
        (280, 44, 0.5, "0.5,0.5", .infinity, .angles),
    ] as [(Double, Double, Double, String, Double, ControlStillError)])
    func badSliderValuesAreNamed(width: Double, height: Double, value: Double, levels: String, roll: Double,
                                 refusal: ControlStillError) {
        #expect(throws: refusal) {
            try EQSliderStill(widthPoints: width, heightPoints: height, value: value, levels: levels,
                              rollRadians: roll, pitchRadians: 0)
        }
    }

    @Test func theSliderStillKeepsItsLevelsAndIsItsBounds() throws {
        let still = try EQSliderStill(widthPoints: 100, heightPoints: 60, value: 1, levels: "0.8, 0.25",
                                      rollRadians: 0.4, pitchRadians: -0.2)
        #expect(still.levels.left == 0.8 && still.levels.right == 0.25)
        let image = still.image(light: .white, scale: 3)
        #expect(image.width == 300 && image.height == 180)
    }

    @Test func badRingValuesAreNamed() {
        for (size, duration, holds, refusal) in [
            (40.0, 45.0, "", .points(40, dimension: .size, minimum: 48, maximum: 2000)),
            (320, 0, "", .durationSeconds(0)),
            (320, 45, "2,-1", .holds("2,-1")),
        ] as [(Double, Double, String, ControlStillError)] {
            #expect(throws: refusal) {
                try RecordingRingStill(sizePoints: size, durationSeconds: duration, holds: holds, seed: 0)
            }
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
        for (colour, width, height, refusal) in [
            ("1,1", 100.0, 6.0, .colour("1,1")),
            ("1,1,1", 10, 6, .points(10, dimension: .width, minimum: 28, maximum: 2000)),
            ("1,1,1", 100, 0.5, .points(0.5, dimension: .trackHeight, minimum: 1, maximum: 100)),
        ] as [(String, Double, Double, ControlStillError)] {
            #expect(throws: refusal) {
                try ColourSlidersStill(colour: colour, widthPoints: width, track: nil, trackHeightPoints: height)
            }
        }
    }
}
