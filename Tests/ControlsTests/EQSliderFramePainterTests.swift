@testable import Controls
import Knob
import Motion
import Testing

/// The LARSBar slider as render frames: level updates reach the fade at
/// their own times, the lights start dark and hold the last levels, and a
/// settled frame is the painter's still.
@Suite(.timeLimit(.minutes(2))) struct EQSliderFramePainterTests {
    static let layout = EQSliderLayout(widthPoints: 100)

    /// A frame's inputs as the render loop passes them: index and shines.
    static func frame(_ index: Int, roll: Double = 0.2) -> FrameSampler.Frame {
        var result: FrameSampler.Frame?
        let state = KnobState(tilt: TiltState(timestampNanoseconds: 0, roll: roll, pitch: -0.1, orientation: .normal))
        FrameSampler(states: [state]).forEachFrame { if result == nil { result = $0 } }
        return result!
    }

    @Test func anUpdateBetweenFramesStartsItsFadeAtItsOwnTime() {
        // v = 1: all 14 lights active, floor(14 · 0.5) = 7 lit on the left, none on the right.
        var painter = EQSliderFramePainter(layout: Self.layout, scale: 1, value: 1,
                                           updates: [(seconds: 0.01, left: 0.5, right: 0)])
        var image = RGBAImage(width: 1, height: 1)
        painter.paint(Self.frame(0), atSeconds: 0, into: &image)
        #expect(painter.shownLevels.left.allSatisfy { $0 == 0 }, "the lights start dark")
        painter.paint(Self.frame(1), atSeconds: 1.0 / 60, into: &image)
        let sigma = EQLightFade.curve.progress((1.0 / 60 - 0.01) / EQLightFade.durationSeconds)
        #expect(sigma > 0 && sigma < 1)
        #expect(painter.shownLevels.left == Array(repeating: sigma, count: 7) + Array(repeating: 0, count: 7))
        #expect(painter.shownLevels.right == Array(repeating: 0, count: 14))
        #expect(image.width == painter.frameWidth && image.height == painter.frameHeight)
    }

    @Test func theLastLevelsAreHeldAfterTheUpdatesEnd() {
        var painter = EQSliderFramePainter(layout: Self.layout, scale: 1, value: 1,
                                           updates: [(seconds: 0, left: 0, right: 0.5), (seconds: 0.2, left: 0.3, right: 1)])
        var image = RGBAImage(width: 1, height: 1)
        painter.paint(Self.frame(0), atSeconds: 30, into: &image)
        #expect(painter.model.leftLevel == 0.3 && painter.model.rightLevel == 1)
        #expect(painter.shownLevels.left == Array(repeating: 1, count: 4) + Array(repeating: 0, count: 10))
        #expect(painter.shownLevels.right == Array(repeating: 1, count: 14))
    }

    @Test(arguments: [1, 2, 3])
    func aSettledFrameIsThePaintersStill(scale: Int) {
        var painter = EQSliderFramePainter(layout: Self.layout, scale: scale, value: 0.6,
                                           updates: [(seconds: 0, left: 0.9, right: 0.4)], light: .white)
        let frame = Self.frame(0, roll: 0.35)
        var image = RGBAImage(width: 1, height: 1)
        painter.paint(frame, atSeconds: 0.5, into: &image)
        let still = EQSliderPainter(layout: Self.layout, scale: scale)
            .paintSettled(EQSliderModel(value: 0.6, leftLevel: 0.9, rightLevel: 0.4), shines: frame.shines)
        #expect(image.width == still.width && image.height == still.height)
        let differing = zip(image.pixels, still.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) bytes differ from the still")
    }
}
