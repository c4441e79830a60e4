import Foundation
@testable import Motion
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(2))) struct GravityEstimateTests {
    @Test func quietSamplesHaveFullWeight() {
        var estimate = GravityEstimate()
        for i in 0..<200 {
            let wobble = 1 + 0.05 * sin(Double(i) * 0.3)  // |a| within 5 % of g
            #expect(estimate.weigh(squaredMagnitude: 96.2 * wobble * wobble, elapsedSeconds: 0.01) == 1)
        }
        #expect(abs(estimate.magnitude - 9.81) < 0.3)
    }

    @Test func freeFallAndShakeGetLittleWeight() {
        var estimate = GravityEstimate()
        for _ in 0..<100 { _ = estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) }
        let fall = estimate.weigh(squaredMagnitude: 0, elapsedSeconds: 0.01)
        #expect(abs(fall - GravityEstimate.quietBand * GravityEstimate.quietBand) < 0.01)
        let shake = estimate.weigh(squaredMagnitude: 30 * 30, elapsedSeconds: 0.01)
        #expect(shake < 0.005)
        // Right after the shake a 1 g sample is still held back (the shake is judged as a whole) …
        #expect(estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) < 0.01)
        // … and within a second of quiet (ln(804 / 48) · 0.15 s ≈ 0.42 s here) the weight is back to 1.
        var last = 0.0
        for _ in 0..<100 { last = estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) }
        #expect(last == 1)
        #expect(abs(estimate.magnitude - 9.81) < 0.1)
    }

    /// Seconds after a disturbance of 2 g lasting `seconds` until a 1 g
    /// sample has full weight again (100 Hz).
    static func recoverySeconds(afterDisturbanceOf seconds: Double) -> Double {
        var estimate = GravityEstimate()
        for _ in 0..<200 { _ = estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) }
        for _ in 0..<Int((seconds * 100).rounded()) {
            _ = estimate.weigh(squaredMagnitude: 4 * 96.2, elapsedSeconds: 0.01)
        }
        for step in 1...300 where estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) == 1 {
            return Double(step) * 0.01
        }
        return .infinity
    }

    /// A brief disturbance (a knock) lets go of the filter sooner than a
    /// sustained one (a hand carrying the device), whose weight remembers it
    /// over 0.3 s instead of 0.15 s.
    @Test func aSustainedDisturbanceIsHeldLongerThanABriefOne() {
        let brief = Self.recoverySeconds(afterDisturbanceOf: 0.05)
        let sustained = Self.recoverySeconds(afterDisturbanceOf: 1)
        #expect(brief < 0.35, "brief: \(brief) s")
        #expect(sustained > brief + 0.1 && sustained < 1, "sustained: \(sustained) s, brief: \(brief) s")
    }

    @Test func aWrongFirstEstimateIsOutvoted() {
        var estimate = GravityEstimate()
        _ = estimate.weigh(squaredMagnitude: 40 * 40, elapsedSeconds: 0)  // first sample mid-shake
        var weight = 0.0
        for _ in 0..<1500 { weight = estimate.weigh(squaredMagnitude: 96.2, elapsedSeconds: 0.01) }  // 15 s
        #expect(weight == 1)
        #expect(abs(estimate.magnitude - 9.81) < 0.5)
    }
}

@Suite(.timeLimit(.minutes(2))) struct OnePoleCoefficientTests {
    @Test func matchesTheExactAlphaForJitteredIntervals() {
        var coefficient = OnePoleCoefficient()
        var generator = SplitMix(seed: 5)
        for _ in 0..<100_000 {
            // x ≈ 0.314 ± 0.04 (10 ms ± 1.3 ms at τ = 31.8 ms), now and then a very different interval.
            let jump = generator.next() % 50 == 0
            let x = (jump ? Double(generator.next() % 1000) / 100 : 0.3142)
                + (Double(generator.next() % 2001) - 1000) * 4e-5  // within ±0.04 of the base
            let exact = -expm1(-x)
            #expect(abs(coefficient.alpha(x: x) - exact) <= 1e-12)
        }
    }
}
