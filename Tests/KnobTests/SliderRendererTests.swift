@testable import Knob
import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct SliderRendererTests {
    static let tilt = TiltState(timestampNanoseconds: 0, roll: 0, pitch: 0, orientation: .normal)

    /// Track light left of the knob, dark right of it; the knob sits where
    /// the value puts it.
    @Test(arguments: [0.0, 0.3, 1.0])
    func trackIsFilledLeftOfTheKnob(value: Double) {
        var slider = SliderRenderer(width: 224, frameSize: 56)
        var frame = slider.makeFrame()
        slider.render(value: value, shines: .rest, tilt: Self.tilt, into: &frame)
        let knobX = Int(slider.knobCentreX(value))
        #expect(knobX == 28 + Int(value * 168))
        #expect(frame[knobX, 28].a == 255 && frame[knobX, 28].r > 150)  // the metal knob
        let y = 28 + 4  // inside the track's gradient rows, below the centre line
        if knobX - 30 > 28 { #expect(frame[knobX - 30, y].r > 200, "filled part \(frame[knobX - 30, y])") }
        if knobX + 30 < 196 { #expect(frame[knobX + 30, y].r < 40, "empty part \(frame[knobX + 30, y])") }
        #expect(frame[112, 2].a == 0)  // above the track: transparent
    }
}
