import Controls
import Foundation
import GoldenTesting
import Knob
import Testing

/// CONTROLS.md §3's track checks, the view's layout, goldens.
@Suite(.timeLimit(.minutes(2))) struct ColourSliderPainterTests {
    static let goldens = GoldenImage(directory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden"))
    static let c = RGBAColour(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)

    @Test func redTrackEndsAt256Pixels() {
        let track = ColourSliderPainter.track(.red, colour: Self.c, widthPoints: 256, scale: 1)
        #expect(track.width == 256 && track.height == 6)
        for y in 0..<6 {
            #expect(track[0, y] == RGBA8(r: 0, g: 102, b: 153))
            #expect(track[255, y] == RGBA8(r: 255, g: 102, b: 153))
        }
    }

    @Test func settingGreenMovesTheRedTracksEnds() {
        var group = ColourSliderGroup()
        for k in ColourComponent.allCases { group.addSlider(k) }
        for k in ColourComponent.allCases { group.set(k, to: k.value(in: Self.c)) }
        group.set(.green, to: 0.8)
        let track = ColourSliderPainter.track(.red, colour: group.colour, widthPoints: 256, scale: 1)
        #expect(track[0, 3] == RGBA8(r: 0, g: 204, b: 153))
        #expect(track[255, 3] == RGBA8(r: 255, g: 204, b: 153))
    }

    /// Linear in 0–255 values: column x of 256 carries the component x.
    @Test func trackIsLinearInByteValues() {
        let track = ColourSliderPainter.track(.blue, colour: Self.c, widthPoints: 128, scale: 2)
        #expect(track.width == 256 && track.height == 12)
        for x in 0..<256 { #expect(track[x, 5].b == UInt8(x)) }
    }

    @Test func alphaTrackIsPremultipliedFromClearToOpaque() {
        let track = ColourSliderPainter.track(.alpha, colour: Self.c, widthPoints: 256, scale: 1)
        #expect(track[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(track[255, 0] == RGBA8(r: 51, g: 102, b: 153))
        let mid = track[128, 0]
        #expect(mid.a == 128 && mid.g == UInt8((102.0 * 128 / 255).rounded()))
    }

    @Test func viewIsTheSwatchAboveFourSlidersOnWhite() {
        var group = ColourSliderGroup()
        for k in ColourComponent.allCases { group.addSlider(k) }
        for k in ColourComponent.allCases { group.set(k, to: k.value(in: Self.c)) }
        let view = ColourSlidersView(widthPoints: 280, scale: 1)
        let image = view.paint(group)
        #expect(image.width == 320 && image.height == 266)
        #expect(image[5, 5] == RGBA8(grey: 255))
        #expect(image[160, 45] == RGBA8(r: 51, g: 102, b: 153))  // the swatch
        // The red row's track left end (x = 20) at its middle (y = 70 + 22).
        #expect(image[20, 92] == RGBA8(r: 0, g: 102, b: 153))
        // The thumb (white) at the red value's place: 20 + 14 + 0.2 · 252.
        #expect(image[Int(20 + view.thumbCentreX(0.2)), 92] == RGBA8(grey: 255))
    }

    @Test(arguments: [1, 2, 3])
    func matchesGolden(scale: Int) {
        var group = ColourSliderGroup()
        for k in ColourComponent.allCases { group.addSlider(k) }
        for k in ColourComponent.allCases { group.set(k, to: k.value(in: RGBAColour(red: 0.9, green: 0.45, blue: 0.1, alpha: 0.75))) }
        let image = ColourSlidersView(widthPoints: 200, scale: scale).paint(group)
        let problem = Self.goldens.check(image, named: "rgb-200-\(scale)x", tolerance: 2)
        #expect(problem == nil, "\(problem ?? "")")
    }
}
