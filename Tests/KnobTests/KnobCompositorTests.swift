import GoldenTesting
@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct KnobCompositorTests {
    static let poses: [ShinePair] = [
        .rest,
        ShinePair(roll: 0.3, pitch: 0.1),
        ShinePair(roll: -0.7, pitch: 0.45),
        ShinePair(roll: 2.9, pitch: -1.2),
        ShinePair(first: Shine(rotation: 12.5, opacity: 0.33), second: Shine(rotation: -7.1, opacity: 0)),
        ShinePair(first: Shine(rotation: .pi / 2, opacity: 1), second: Shine(rotation: -.pi / 4, opacity: 0.5)),
    ]

    /// The SIMD span path and the plain per-pixel loop give the same bytes,
    /// on even and odd sizes (odd ones put the centre mid-pixel).
    @Test(arguments: [16, 21, 56, 84, 131])
    func fastPathEqualsScalarReference(size: Int) {
        let compositor = KnobCompositor(size: size)
        for pose in Self.poses {
            var fast = compositor.makeFrame(), reference = compositor.makeFrame()
            compositor.compose(pose, into: &fast)
            compositor.composeReference(pose, into: &reference)
            let d = GoldenImage.difference(fast, reference, tolerance: 0)
            #expect(d.count == 0, "size \(size) pose \(pose): \(d.count) pixels differ, first \(String(describing: d.first))")
        }
    }

    /// The original's knobs: 24 pt and 16 pt at scale 1, 2 and 3 (frames of
    /// 28, 56, 84 and 20, 40, 60 px).
    @Test(arguments: [24, 16], [1, 2, 3])
    func originalSizesCompose(knobPoints: Int, scale: Int) {
        let geometry = KnobGeometry(knobPoints: knobPoints, scale: scale)
        #expect(geometry.frameSize == (knobPoints + 4) * scale)
        let compositor = KnobCompositor(geometry: geometry)
        var fast = compositor.makeFrame(), reference = compositor.makeFrame()
        let pose = ShinePair(roll: 0.25, pitch: -0.15)
        compositor.compose(pose, into: &fast)
        compositor.composeReference(pose, into: &reference)
        #expect(fast == reference)
        let c = geometry.frameSize / 2
        #expect(fast[c, c].a == 255)
        #expect(fast[0, 0].a == 0)
    }

    @Test func identicalInputGivesIdenticalBytes() {
        let a = KnobCompositor(size: 64), b = KnobCompositor(size: 64)
        var fa = a.makeFrame(), fb = b.makeFrame()
        let pose = ShinePair(roll: 0.123, pitch: -0.456)
        a.compose(pose, into: &fa)
        b.compose(pose, into: &fb)
        #expect(fa.pixels == fb.pixels)
    }

    /// SPEC §1: a positive rotation turns clockwise on screen (y down), so
    /// the upper wedge swings right and the lower one left.
    @Test func positiveRotationTurnsClockwiseOnScreen() {
        let compositor = KnobCompositor(size: 96)
        var frame = compositor.makeFrame()
        let hidden = Shine(rotation: 0, opacity: 0)
        compositor.compose(ShinePair(first: Shine(rotation: 0.6, opacity: 1), second: hidden), into: &frame)
        let m = ShineMass(frame: frame, base: compositor.layers.base)
        #expect(m.topRight > 2 * m.topLeft, "\(m)")
        #expect(m.bottomLeft > 2 * m.bottomRight, "\(m)")
    }

    /// Positive roll (right edge down) turns both shines against the roll:
    /// counter-clockwise on screen.
    @Test func positiveRollTurnsShinesCounterClockwise() {
        let compositor = KnobCompositor(size: 96)
        var frame = compositor.makeFrame()
        compositor.compose(ShinePair(roll: 0.5, pitch: 0), into: &frame)
        let m = ShineMass(frame: frame, base: compositor.layers.base)
        #expect(m.topLeft > 2 * m.topRight, "\(m)")
        #expect(m.bottomRight > 2 * m.bottomLeft, "\(m)")
    }

    @Test func unturnedShinesAreSymmetric() {
        let compositor = KnobCompositor(size: 96)
        var frame = compositor.makeFrame()
        compositor.compose(.rest, into: &frame)
        let m = ShineMass(frame: frame, base: compositor.layers.base)
        #expect(abs(m.topLeft - m.topRight) * 50 < m.total, "\(m)")
    }

    @Test func zeroOpacityLeavesTheBase() {
        let compositor = KnobCompositor(size: 64)
        var frame = compositor.makeFrame()
        let hidden = Shine(rotation: 0.4, opacity: 0)
        compositor.compose(ShinePair(first: hidden, second: hidden), into: &frame)
        #expect(frame == compositor.layers.base)
    }

    @Test func opacityScalesTheShine() {
        let compositor = KnobCompositor(size: 96)
        var full = compositor.makeFrame(), half = compositor.makeFrame()
        let hidden = Shine(rotation: 0, opacity: 0)
        compositor.compose(ShinePair(first: Shine(rotation: 0.2, opacity: 1), second: hidden), into: &full)
        compositor.compose(ShinePair(first: Shine(rotation: 0.2, opacity: 0.5), second: hidden), into: &half)
        let mFull = ShineMass(frame: full, base: compositor.layers.base).total
        let mHalf = ShineMass(frame: half, base: compositor.layers.base).total
        #expect(mFull > 0)
        #expect(abs(Double(mHalf) / Double(mFull) - 0.5) < 0.05, "half opacity gave \(mHalf) of \(mFull)")
    }

    /// A client stacking the exported layers with ordinary "over" (as the
    /// web page does) gets the compositor's frame, within 2 levels.
    @Test func exportedLayersStackToTheComposedFrame() {
        let compositor = KnobCompositor(size: 80)
        var frame = compositor.makeFrame()
        let hidden = Shine(rotation: 0, opacity: 0)
        compositor.compose(ShinePair(first: Shine(rotation: 0, opacity: 1), second: hidden), into: &frame)
        let base = compositor.layers.base, shine = compositor.layers.shine
        var stacked = base
        for i in stride(from: 0, to: base.pixels.count, by: 4) {
            let a = Int(shine.pixels[i + 3])
            for c in 0..<4 {
                let v = Int(shine.pixels[i + c]) + (Int(base.pixels[i + c]) * (255 - a) + 127) / 255
                stacked.pixels[i + c] = UInt8(min(255, v))
            }
        }
        let d = GoldenImage.difference(frame, stacked, tolerance: 2)
        #expect(d.count == 0, "\(d.count) pixels differ, first \(String(describing: d.first))")
    }
}
