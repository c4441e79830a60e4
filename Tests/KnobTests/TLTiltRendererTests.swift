import Testing
@testable import Knob

@Suite struct TLTiltRendererTests {
    /// SPEC §2: the original's 24×24 bitmap at zero motion, within ±1.
    @Test(arguments: [(0, 0, 121), (12, 12, 255), (12, 0, 244), (11, 11, 127)])
    func rawBitmapMatchesTheOriginal(x: Int, y: Int, expected: Int) {
        let bitmap = TLTiltRenderer.rawBitmap(size: 24, roll: 0, pitch: 0)
        #expect(abs(Int(bitmap[y * 24 + x]) - expected) <= 1, "(\(x), \(y)) = \(bitmap[y * 24 + x])")
    }

    /// At twice the size the same formula runs on the scaled grid: even
    /// pixels of the 48 px bitmap land on the 24 px bitmap's pixels.
    @Test func scaledBitmapSamplesTheSameFormula() {
        let small = TLTiltRenderer.rawBitmap(size: 24, roll: 0.2, pitch: -0.1)
        let big = TLTiltRenderer.rawBitmap(size: 48, roll: 0.2, pitch: -0.1)
        var far = 0
        for y in 0..<24 { for x in 0..<24 where abs(Int(big[(2 * y) * 48 + 2 * x]) - Int(small[y * 24 + x])) > 1 { far += 1 } }
        #expect(far == 0)
    }

    @Test func motionChangesTheBitmap() {
        let rest = TLTiltRenderer.rawBitmap(size: 24, roll: 0, pitch: 0)
        let tilted = TLTiltRenderer.rawBitmap(size: 24, roll: 0.5, pitch: 0.3)
        #expect(rest != tilted)
    }

    @Test func frameIsClippedToACircleOverAShadow() {
        let renderer = TLTiltRenderer(geometry: KnobGeometry(frameSize: 56))
        var frame = RGBAImage(width: 56, height: 56)
        renderer.render(roll: 0, pitch: 0, into: &frame)
        #expect(frame[28, 28].a == 255)
        #expect(frame[0, 0].a == 0)
        let margin = frame[28, 55]  // below the knob: shadow only, 30% black at most
        #expect(margin.r == 0 && margin.a > 0 && margin.a <= 77, "\(margin)")
    }
}
