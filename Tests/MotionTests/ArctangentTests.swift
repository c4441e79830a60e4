import Foundation
@testable import Motion
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(2))) struct ArctangentTests {
    /// How many doubles lie between `a` and `b` (same sign assumed, or zeros).
    static func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        let ia = Int64(bitPattern: a.bitPattern), ib = Int64(bitPattern: b.bitPattern)
        return ia > ib ? UInt64(ia - ib) : UInt64(ib - ia)
    }

    static func expectClose(_ y: Double, _ x: Double, within limit: UInt64 = 2,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = Arctangent.atan2(y, x), libm = Foundation.atan2(y, x)
        #expect(fast.sign == libm.sign && ulps(fast, libm) <= limit,
                "atan2(\(y), \(x)): \(fast) vs libm \(libm)", sourceLocation: sourceLocation)
    }

    @Test func exactCases() {
        #expect(Arctangent.atan2(0, 1) == 0)
        #expect(Arctangent.atan2(-0.0, 1).sign == .minus)
        #expect(Arctangent.atan2(1, 0) == Double.pi / 2)
        #expect(Arctangent.atan2(-1, 0) == -Double.pi / 2)
        #expect(Arctangent.atan2(0, -1) == Double.pi)
        #expect(Arctangent.atan2(-0.0, -1) == -Double.pi)
        #expect(Arctangent.atan2(1, 1) == Double.pi / 4)
        #expect(Arctangent.atan2(1, -1) == 3 * Double.pi / 4)
    }

    @Test func tableMatchesLibm() {
        for k in 0...16 {
            let exact = Foundation.atan(Double(k) / 16)
            #expect(Self.ulps(Arctangent.sixteenthsHigh[k], exact) <= 1)
            #expect(abs(Arctangent.sixteenthsLow[k]) <= exact.ulp)
        }
    }

    /// Every octant, the table's breakpoints (t = k/32, where the nearest
    /// sixteenth changes) and their neighbours, and tiny and huge scales.
    @Test func denseGridWithinTwoUlpOfLibm() {
        for scale in [1e-300, 1e-3, 1, 9.81, 256, 1e300] {
            for i in 0...2048 {
                let t = Double(i) / 2048
                for (a, b) in [(t, 1.0), (1.0, t), (t.nextUp, 1.0), (1.0, t.nextDown)] where a != 0 || b != 0 {
                    for (sy, sx) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                        Self.expectClose(sy * a * scale, sx * b * scale)
                    }
                }
            }
        }
    }

    @Test func randomVectorsWithinTwoUlpOfLibm() {
        var generator = SplitMix(seed: 0x5EED)
        var worst: UInt64 = 0
        for _ in 0..<1_000_000 {
            let y = Double.random(in: -20...20, using: &generator)
            let x = Double.random(in: -20...20, using: &generator)
            guard y != 0 || x != 0 else { continue }
            worst = max(worst, Self.ulps(Arctangent.atan2(y, x), Foundation.atan2(y, x)))
        }
        #expect(worst <= 2)
    }
}
