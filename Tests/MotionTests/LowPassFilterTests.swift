import Foundation
@testable import Motion
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(2))) struct LowPassFilterTests {
    /// Feeds 0 then a unit step in x and returns the output after `seconds`.
    private func stepResponse(intervals: [Int64]) -> [(t: Int64, x: Double)] {
        var filter = LowPassFilter(cutoffHertz: 5)
        filter.update(.zero, timestampNanoseconds: 0)
        var t: Int64 = 0
        var out: [(Int64, Double)] = []
        for dt in intervals {
            t += dt
            out.append((t, filter.update(SIMD3(1, 0, 0), timestampNanoseconds: t).x))
        }
        return out
    }

    @Test func firstSampleInitialises() {
        var filter = LowPassFilter()
        let out = filter.update(SIMD3(1, 2, 3), timestampNanoseconds: 123)
        #expect(out == SIMD3(1, 2, 3))
        #expect(filter.lastEvent == .initialised)
    }

    @Test func stepResponseFollowsTimeConstants() {
        let filter = LowPassFilter(cutoffHertz: 5)
        let tau = filter.timeConstantSeconds
        #expect(abs(tau - 1 / (2 * Double.pi * 5)) < 1e-15)
        // 1 kHz samples; the step applies from the first sample after t = 0.
        let response = stepResponse(intervals: Array(repeating: 1_000_000, count: 200))
        for k in 1...5 {
            let target = Int64((Double(k) * tau * 1e9).rounded())
            let sample = response.min { abs($0.t - target) < abs($1.t - target) }!
            let expected = 1 - exp(-Double(sample.t) * 1e-9 / tau)
            #expect(abs(sample.x - expected) < 1e-9, "after \(k) τ")
        }
        // Settles within 5 τ to better than 1 %.
        let after5 = response.first { Double($0.t) * 1e-9 >= 5 * tau }!
        #expect(after5.x > 0.99)
    }

    @Test func irregularIntervalsSettleTheSame() {
        var generator = SplitMix(seed: 7)
        var irregular: [Int64] = []
        var total: Int64 = 0
        while total < 200_000_000 {
            let dt = Int64(1_000_000 + generator.next() % 30_000_000)
            irregular.append(dt)
            total += dt
        }
        let regular = stepResponse(intervals: Array(repeating: 1_000_000, count: 400))
        let tau = LowPassFilter(cutoffHertz: 5).timeConstantSeconds
        for sample in stepResponse(intervals: irregular) {
            let expected = 1 - exp(-Double(sample.t) * 1e-9 / tau)
            #expect(abs(sample.x - expected) < 1e-9)
            if let same = regular.first(where: { $0.t == sample.t }) {
                #expect(abs(same.x - sample.x) < 1e-9)
            }
        }
    }

    @Test func longGapResets() {
        var filter = LowPassFilter(cutoffHertz: 5)
        filter.update(.zero, timestampNanoseconds: 0)
        filter.update(.zero, timestampNanoseconds: 10_000_000)
        #expect(filter.lastEvent == .step)
        let out = filter.update(SIMD3(0, 0, 9), timestampNanoseconds: 10_000_000 + filter.resetGapNanoseconds + 1)
        #expect(filter.lastEvent == .reset)
        #expect(out == SIMD3(0, 0, 9))
        #expect(filter.resetGapNanoseconds >= Int64(20 * filter.timeConstantSeconds * 1e9))
    }

    @Test func backwardsTimestampIsReportedNotUsed() {
        var filter = LowPassFilter(cutoffHertz: 5)
        filter.update(SIMD3(1, 0, 0), timestampNanoseconds: 1_000_000_000)
        let out = filter.update(SIMD3(0, 1, 0), timestampNanoseconds: 900_000_000)
        #expect(filter.lastEvent == .backwards)
        // Restarted at the new sample rather than extrapolating with a negative Δt.
        #expect(out == SIMD3(0, 1, 0))
        filter.update(SIMD3(0, 1, 0), timestampNanoseconds: 910_000_000)
        #expect(filter.lastEvent == .step)
    }

    @Test func weightSlowsTheFilter() {
        var full = LowPassFilter(), light = LowPassFilter()
        full.update(.zero, timestampNanoseconds: 0)
        light.update(.zero, timestampNanoseconds: 0)
        let a = full.update(SIMD3(1, 0, 0), timestampNanoseconds: 10_000_000)
        let b = light.update(SIMD3(1, 0, 0), timestampNanoseconds: 10_000_000, weight: 0.25)
        #expect(abs(b.x - 0.25 * a.x) < 1e-15)
    }
}
