@testable import Controls
import Foundation
import GoldenTesting
import Knob
import Testing

/// The LARSBar painter: bounds, CONTROLS.md §1's pixel checks, layers,
/// drawing order, goldens.
@Suite(.timeLimit(.minutes(2))) struct EQSliderPainterTests {
    static let goldens = GoldenImage(directory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden"))

    /// The device pixel under a light's dot centre (its top-left quadrant,
    /// wholly inside the dot).
    static func dotCentre(_ layout: EQSliderLayout, _ i: Int, _ channel: EQChannel, scale: Int) -> (Int, Int) {
        let s = Double(scale)
        return (Int((layout.cellCentreX(i) * s).rounded(.down)) - 1,
                Int(((layout.cellMinY(channel) + EQSliderLayout.dotCentreInCell.y) * s).rounded(.down)) - 1)
    }

    @Test(arguments: [1, 2, 3])
    func imageIsExactlyTheBoundsOnTheBodyColour(scale: Int) {
        let painter = EQSliderPainter(layout: EQSliderLayout(widthPoints: 280), scale: scale)
        let image = painter.paintSettled(EQSliderModel(value: 0.5), shines: .rest)
        #expect(image.width == 280 * scale && image.height == 44 * scale)
        // Top-left corner: the body colour (0.173, 0.188, 0.192), opaque.
        #expect(image[0, 0] == RGBA8(r: 44, g: 48, b: 49))
    }

    @Test func litGreenAndUnlitActiveDotCentresAtTwoX() {
        let layout = EQSliderLayout(widthPoints: 280)
        let painter = EQSliderPainter(layout: layout, scale: 2)
        // v = 0.5: lights 0…19 active; level 0.5 → 20 · 0.5 … 10 lit.
        let image = painter.paintSettled(EQSliderModel(value: 0.5, leftLevel: 0.5, rightLevel: 0.5), shines: .rest)
        for channel in EQChannel.allCases {
            let lit = Self.dotCentre(layout, 2, channel, scale: 2)
            #expect(image[lit.0, lit.1] == RGBA8(r: 0, g: 230, b: 74), "lit green \(channel)")
            let unlit = Self.dotCentre(layout, 15, channel, scale: 2)
            #expect(image[unlit.0, unlit.1] == RGBA8(r: 96, g: 102, b: 106), "unlit active \(channel)")
        }
    }

    @Test func inactiveDotIsTheDimRestingColourOverTheBody() {
        let layout = EQSliderLayout(widthPoints: 280)
        let image = EQSliderPainter(layout: layout, scale: 2).paintSettled(EQSliderModel(value: 0.5), shines: .rest)
        let p = Self.dotCentre(layout, 35, .left, scale: 2)
        // (0.19, 0.19, 0.19) at 0.8 over the body (44, 48, 49).
        let want = RGBA8(r: UInt8((0.19 * 255 * 0.8 + 44 * 0.2).rounded()),
                         g: UInt8((0.19 * 255 * 0.8 + 48 * 0.2).rounded()),
                         b: UInt8((0.19 * 255 * 0.8 + 49 * 0.2).rounded()))
        #expect(image[p.0, p.1] == want)
    }

    /// A light's glow reaches past its dot only above σ 0.5.
    @Test func glowShowsOnlyAboveHalfLit() {
        let layout = EQSliderLayout(widthPoints: 280)
        let painter = EQSliderPainter(layout: layout, scale: 2)
        let model = EQSliderModel(value: 1, leftLevel: 0, rightLevel: 0)
        func image(sigma: Double) -> RGBAImage {
            var levels = EQLightLevels(left: Array(repeating: 0, count: 40), right: Array(repeating: 0, count: 40))
            levels.left[5] = sigma
            return painter.paint(model, levels: levels, shines: .rest)
        }
        // 4 pt above the dot centre: outside the dot, inside a 6σ pt glow.
        let x = Int(layout.cellCentreX(5) * 2), y = Int((layout.cellMinY(.left) + 5.5 - 4) * 2)
        let dark = image(sigma: 0)
        #expect(image(sigma: 0.5)[x, y] == dark[x, y])
        #expect(image(sigma: 1)[x, y].g > dark[x, y].g)
    }

    /// Light 5 of the left row alone at level `sigma` (2×, value 1).
    static func single(sigma: Double) -> RGBAImage {
        let painter = EQSliderPainter(layout: EQSliderLayout(widthPoints: 280), scale: 2)
        var levels = EQLightLevels(left: Array(repeating: 0, count: 40), right: Array(repeating: 0, count: 40))
        levels.left[5] = sigma
        return painter.paint(EQSliderModel(value: 1, leftLevel: 0, rightLevel: 0), levels: levels, shines: .rest)
    }

    /// The lit fill casts its shadow one device pixel down, not up. At 2×
    /// the dot spans rows 22…32 about y = 27 (σ 0.5: no glow yet).
    @Test func litDotCastsAHardShadowDownward() {
        let x = 5 * 7 * 2 + 4  // centre 37 pt → 74 px
        let dark = Self.single(sigma: 0), lit = Self.single(sigma: 0.5)
        #expect(lit[x, 21] == dark[x, 21])            // just above the dot: nothing
        #expect(lit[x, 32].r > dark[x, 32].r)          // just below it: the shadow's grey
        #expect(lit[x, 33] == dark[x, 33])            // 1 px, no blur: nothing further
    }

    /// The outline is a dark 1-pixel ring on the dot's edge.
    @Test func dotHasADarkOutline() {
        let x = 74, image = Self.single(sigma: 0)
        #expect(image[x, 27] == RGBA8(r: 96, g: 102, b: 106))   // active, resting
        #expect(image[x, 22].r < 70 && image[x, 32].r < 70)      // the edge: outline over half the dot
        #expect(image[x, 19] == image[0, 0])                     // outside: the body
    }

    /// Cells overlap by 3 pt: the lower index is painted last, on top.
    @Test func lowerIndicesEndOnTop() {
        let layout = EQSliderLayout(widthPoints: 280)
        let painter = EQSliderPainter(layout: layout, scale: 2)
        var levels = EQLightLevels(left: Array(repeating: 0, count: 40), right: Array(repeating: 0, count: 40))
        levels.left[10] = 1
        levels.left[11] = 1
        let model = EQSliderModel(value: 1, leftLevel: 0, rightLevel: 0)
        let image = painter.paint(model, levels: levels, shines: .rest)
        func order(_ indices: [Int]) -> RGBAImage {
            var canvas = ControlCanvas(widthPoints: 280, heightPoints: 44, scale: 2)
            canvas.fillAll(EQSliderStyle.original.body)
            for i in indices {
                painter.paintLight(&canvas, index: i, channel: .left, active: true, sigma: 1)
            }
            return canvas.image
        }
        let descending = order([11, 10]), ascending = order([10, 11])
        // Where the two cells overlap (above the groove), the result is
        // light 10's over light 11's.
        let y0 = Int(layout.cellMinY(.left) * 2)
        let overlap = Int(layout.cellMinX(11) * 2)..<Int((layout.cellMinX(10) + 10) * 2)
        var differing = 0
        for y in y0..<(y0 + 20) {
            for x in overlap where descending[x, y] != ascending[x, y] {
                differing += 1
                #expect(image[x, y] == descending[x, y], "(\(x), \(y))")
            }
        }
        #expect(differing > 0)
    }

    @Test func thumbIsTheKnobWhereTheValueIs() {
        let layout = EQSliderLayout(widthPoints: 280)
        let painter = EQSliderPainter(layout: layout, scale: 2)
        for value in [0.0, 0.3, 1.0] {
            let model = EQSliderModel(value: value)
            let image = painter.paintSettled(model, shines: .rest)
            let x = Int(painter.thumbCentreX(model) * 2)
            #expect(painter.thumbCentreX(model) == 10 + value * 260)
            #expect(image[x, 44].r > 150, "brushed metal at the thumb centre for v \(value)")
        }
    }

    @Test(arguments: [1, 2, 3])
    func matchesGolden(scale: Int) {
        let painter = EQSliderPainter(layout: EQSliderLayout(widthPoints: 280), scale: scale)
        let model = EQSliderModel(value: 0.7, leftLevel: 0.9, rightLevel: 0.6)
        var animator = EQLightAnimator(lightCount: 40, settledOn: EQSliderModel(value: 0.7, leftLevel: 0.5, rightLevel: 0.8))
        animator.update(model, atSeconds: 0)
        // Mid-fade (two frames at 60 fps): lights fading in and out.
        let image = painter.paint(model, levels: animator.levels(atSeconds: 2.0 / 60),
                                  shines: ShinePair(roll: 0.3, pitch: 0.1))
        let problem = Self.goldens.check(image, named: "larsbar-280-\(scale)x", tolerance: 2)
        #expect(problem == nil, "\(problem ?? "")")
    }
}
