import Controls
import Foundation
import GoldenTesting
import Knob
import Testing

/// CONTROLS.md §2's layout and pixel checks, and goldens.
@Suite(.timeLimit(.minutes(2))) struct RecordingRingPainterTests {
    static let goldens = GoldenImage(directory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden"))

    /// D = 10, holds of 2 s then 3 s.
    static func twoHolds(seed: UInt64 = 1) -> RecordingRing {
        var ring = RecordingRing(durationSeconds: 10, seed: seed)
        ring.press(atSeconds: 0); ring.release(atSeconds: 2)
        ring.press(atSeconds: 3); ring.release(atSeconds: 6)
        return ring
    }

    static func byte(_ colour: RGBAColour) -> RGBA8 {
        let b = colour.bytes
        return RGBA8(r: b.red, g: b.green, b: b.blue)
    }

    @Test func radiusIsHalfTheSideLessTwenty() {
        #expect(RecordingRingPainter(sizePoints: 320, scale: 1).radiusPoints == 140)
    }

    /// θ(u) = π − 2πu: 9 o'clock, then 6, 3 and 12 on screen (y down).
    @Test func pathRunsCounterClockwiseFromNineOClock() {
        let painter = RecordingRingPainter(sizePoints: 320, scale: 1)
        let checks: [(u: Double, degrees: Double, x: Double, y: Double)] = [
            (0, 180, 20, 160), (0.25, 90, 160, 300), (0.5, 0, 300, 160), (0.75, -90, 160, 20),
            (0.05, 162, 26.85, 203.26), (0.2, 108, 116.74, 293.15), (0.4, 36, 273.26, 242.29),
        ]
        for c in checks {
            #expect(abs(RecordingRingPainter.angle(c.u) * 180 / .pi - c.degrees) < 1e-9)
            let p = painter.point(c.u)
            #expect(abs(p.x - c.x) < 0.01 && abs(p.y - c.y) < 0.01, "u \(c.u): \(p)")
            #expect(abs(RecordingRingPainter.position(angle: RecordingRingPainter.angle(c.u)) - c.u) < 1e-12)
        }
    }

    @Test func pixelsShowNewestOlderAndTrackWhereTheChecksSay() {
        let ring = Self.twoHolds()
        let image = RecordingRingPainter(sizePoints: 320, scale: 1).paint(ring)
        #expect(image.width == 320 && image.height == 320)
        let newest = Self.byte(ring.segments[1].colour), older = Self.byte(ring.segments[0].colour)
        #expect(newest != older)
        #expect(image[26, 203] == newest)    // θ = 162°, u = 0.05
        #expect(image[116, 293] == newest)   // θ = 108°, u = 0.2
        #expect(image[273, 242] == older)    // θ = 36°, u = 0.4
        #expect(image[160, 20] == RGBA8(grey: 170))  // 12 o'clock, u = 0.75
        #expect(image[160, 160] == RGBA8(grey: 255))  // white inside
        #expect(image[0, 0] == RGBA8(grey: 255))
    }

    /// 7 pt wide, flat ends: across the stroke at 12 o'clock (y 16.5…23.5
    /// at 1×) six pixels are wholly grey and the two edge pixels half, seven
    /// pixels' worth of grey; along the path the segment ends on a radial cut.
    @Test func strokeIsSevenPointsWideWithFlatEnds() {
        let ring = Self.twoHolds()
        let image = RecordingRingPainter(sizePoints: 320, scale: 1).paint(ring)
        let grey = (0..<60).filter { image[160, $0] == RGBA8(grey: 170) }
        #expect(grey == Array(17..<23))
        let coverage = (0..<60).reduce(0.0) { $0 + Double(255 - Int(image[160, $1].g)) / 85 }
        #expect(abs(coverage - 7) < 0.05, "\(coverage) px of grey across the stroke")
        // At 3 o'clock (u = 0.5) the older segment ends: the row above the
        // centre line is grey, the row below the older colour, edge to edge.
        let older = Self.byte(ring.segments[0].colour)
        for x in 297..<303 {
            #expect(image[x, 158] == RGBA8(grey: 170), "above the cut at x \(x)")
            #expect(image[x, 161] == older, "below the cut at x \(x)")
        }
    }

    @Test(arguments: [1, 2, 3])
    func matchesGolden(scale: Int) {
        let image = RecordingRingPainter(sizePoints: 160, scale: scale).paint(Self.twoHolds(seed: 42))
        #expect(image.width == 160 * scale)
        let problem = Self.goldens.check(image, named: "spark-160-\(scale)x", tolerance: 2)
        #expect(problem == nil, "\(problem ?? "")")
    }
}
