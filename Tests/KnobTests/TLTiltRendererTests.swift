@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct TLTiltRendererTests {
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

    /// Regression: at 200, 256, 300 and 512 px the right and bottom rim
    /// fell outside the bitmap and were drawn black. Over many sizes, the
    /// knob's outline is mirror-symmetric and no pixel of the knob is dark.
    @Test(arguments: [16, 48, 56, 100, 128, 200, 255, 256, 300, 401, 512, 1024])
    func rimIsSymmetricAndLitAtEverySize(size: Int) {
        let renderer = TLTiltRenderer(geometry: KnobGeometry(frameSize: size))
        #expect(renderer.origin >= 0 && renderer.origin + renderer.bitmapSize <= size)
        #expect(Double(renderer.bitmapSize) >= renderer.geometry.knobDiameter)
        var frame = RGBAImage(width: size, height: size)
        renderer.render(roll: 0.3, pitch: -0.2, into: &frame)
        var asymmetric = 0, dark = 0
        for y in 0..<size {
            for x in 0..<size {
                if frame[x, y].a != frame[size - 1 - x, y].a { asymmetric += 1 }
                // Knob pixels: the raw grey is at least 107, so the
                // premultiplied grey is at least about 107/255 of the coverage.
                let c = Int(renderer.coverage[y * size + x])
                if c > 0, Int(frame[x, y].g) * 255 + 255 < 100 * c { dark += 1 }
            }
        }
        #expect(asymmetric == 0, "\(size) px: \(asymmetric) pixels differ from their mirror")
        #expect(dark == 0, "\(size) px: \(dark) knob pixels are dark")
    }

    /// The pixel: frame 0 at 256 px, (237, 128) and its mirror (18, 128).
    @Test func theRightRimMatchesTheLeftAt256() {
        let renderer = TLTiltRenderer(geometry: KnobGeometry(frameSize: 256))
        var frame = RGBAImage(width: 256, height: 256)
        renderer.render(roll: 0, pitch: 0, into: &frame)
        #expect(frame[237, 128].a == frame[18, 128].a)
        #expect(frame[237, 128].g > 100, "\(frame[237, 128])")
    }
}
