@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct KnobLayersTests {
    /// The original's regular knob @2x: a 48 px knob in a 56 px thumb, a
    /// shine about 33×46 px peaking at alpha 227/255.
    @Test func shineMatchesTheOriginalsSizeAndPeak() {
        let layers = KnobLayers(geometry: KnobGeometry(knobPoints: 24, scale: 2))
        #expect(layers.geometry.frameSize == 56)
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min, peak: UInt8 = 0
        for y in 0..<56 {
            for x in 0..<56 {
                let a = layers.shine[x, y].a
                peak = max(peak, a)
                if a > 2 { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) }
            }
        }
        // The axis runs between two pixel columns here (the centre is at
        // 28.0), so no pixel centre sits on the 227 ridge itself.
        #expect((212...229).contains(Int(peak)), "peak alpha \(peak)")
        #expect(abs((maxY - minY + 1) - 46) <= 2, "shine height \(maxY - minY + 1) px")
        #expect(abs((maxX - minX + 1) - 33) <= 3, "shine width \(maxX - minX + 1) px")
        let centre = layers.shine[28, 10]
        #expect(centre.r == centre.a, "the shine is white, premultiplied")
    }

    /// With an odd frame the axis runs through a pixel column, which
    /// carries the original's peak alpha, 227.
    @Test func axisColumnCarriesThePeak() {
        let layers = KnobLayers(size: 57)
        #expect(abs(Int(layers.shine[28, 12].a) - 227) <= 2, "\(layers.shine[28, 12])")
    }

    @Test func baseIsLighterTowardTheCentreAndOpaqueInside() {
        let layers = KnobLayers(size: 112)
        let centre = layers.base[56, 56], nearRim = layers.base[56 + 44, 56]
        #expect(centre.a == 255 && nearRim.a == 255)
        #expect(Int(centre.r) > Int(nearRim.r) + 20, "centre \(centre) rim \(nearRim)")
        // Inside the shadow margin: some alpha (the shadow), no colour.
        let shadow = layers.base[56, 56 + 49]
        #expect(shadow.a > 0 && shadow.r == 0, "\(shadow)")
        #expect(layers.base[0, 0].a == 0)
    }

    @Test func geometryFollowsTheThumb() {
        let g = KnobGeometry(frameSize: 256)
        #expect(abs(g.knobDiameter - 256 * 24.0 / 28) < 1e-9)
        #expect(g.centre == SIMD2(128, 128))
        let small = KnobGeometry(knobPoints: 16, scale: 3)
        #expect(small.frameSize == 60 && small.knobDiameter == 48)
        #expect(abs(KnobGeometry(knobPoints: 24, scale: 2).oneThirdPixelAtRimRadians - 1.0 / 72) < 1e-12)
    }
}
