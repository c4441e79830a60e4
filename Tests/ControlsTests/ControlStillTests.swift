import Controls
import Foundation
import Images
import Knob
import Testing

/// `tiltd draw`'s stills in process: their pixel sizes, the number lists
/// the options take, and the whole-file write.
@Suite(.timeLimit(.minutes(2))) struct ControlStillTests {
    @Test func numberListsAreAllFiniteOrRefused() {
        #expect(ControlStill.numbers("0.2, 0.4") == [0.2, 0.4])
        #expect(ControlStill.numbers("1") == [1])
        #expect(ControlStill.numbers("1,,2") == nil)
        #expect(ControlStill.numbers("a,1") == nil)
        #expect(ControlStill.numbers("inf,1") == nil)
        #expect(ControlStill.numberText(2) == "2" && ControlStill.numberText(0.25) == "0.25")
    }

    @Test func eachStillIsExactlyTheControlsBoundsAtTheScale() {
        let slider = ControlStill.eqSlider(widthPoints: 280, heightPoints: 40, value: 0.5, leftLevel: 0.8,
                                           rightLevel: 0.6, shines: ShinePair(roll: 0, pitch: 0), light: .white,
                                           scale: 2)
        #expect(slider.width == 560 && slider.height == 80)
        let ring = ControlStill.recordingRing(sizePoints: 100, durationSeconds: 10, holdSeconds: [2, 3.5], seed: 1,
                                              scale: 3)
        #expect(ring.width == 300 && ring.height == 300)
        let sliders = ControlStill.colourSliders(colour: RGBAColour(red: 0.2, green: 0.4, blue: 0.6, alpha: 1),
                                                 widthPoints: 280, scale: 1)
        #expect(sliders.width == 320 && sliders.height == 266)
    }

    @Test func aStillIsWrittenWholeAndABadPathIsNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("still-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = ControlStill.recordingRing(sizePoints: 48, durationSeconds: 10, holdSeconds: [], seed: 0, scale: 1)
        #expect(try ControlStill.write(image, to: dir + "/ring.png") == "wrote \(dir)/ring.png (48×48 px)")
        let back = try PNGReader.read(path: dir + "/ring.png")
        #expect(back.width == 48 && back.height == 48)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["ring.png"])
        #expect { try ControlStill.write(image, to: dir + "/missing/ring.png") } throws: {
            "\($0)".contains("\(dir)/missing/")
        }
    }
}
