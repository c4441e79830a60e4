import Foundation
@testable import Levels
import Testing

/// The LARSBar mapping: dB = 10·log10(mean square), dB ← dB + 0.2·(new − dB),
/// level = 1 + dB/60, clamped.
@Suite(.timeLimit(.minutes(2))) struct LevelSmootherTests {
    /// Levels are compared to 1e-9: the arithmetic is a handful of doubles.
    static let tolerance = 1e-9

    @Test func startsAtSilence() {
        let smoother = LevelSmoother()
        #expect(smoother.decibels == LevelSmoother.silenceDecibels)
        #expect(smoother.level == 0)
    }

    @Test func eachUpdateMovesOneFifthOfTheWayInDecibels() {
        var smoother = LevelSmoother()
        // Full scale (0 dB) from −100 dB: −100 + 0.2·100 = −80 dB, still below −60 → 0.
        #expect(smoother.update(meanSquare: 1) == 0)
        #expect(abs(smoother.decibels - -80) < Self.tolerance)
        // −80 + 0.2·80 = −64; then −51.2 → level 1 − 51.2/60.
        smoother.update(meanSquare: 1)
        let level = smoother.update(meanSquare: 1)
        #expect(abs(smoother.decibels - -51.2) < Self.tolerance)
        #expect(abs(level - (1 - 51.2 / 60)) < Self.tolerance)
    }

    @Test func steadyPowerSettlesOnTheOriginalsMapping() {
        var smoother = LevelSmoother()
        // A mean square of 0.01 is −20 dB → level 1 − 20/60.
        for _ in 0..<200 { smoother.update(meanSquare: 0.01) }
        #expect(abs(smoother.level - (1 - 20.0 / 60)) < 1e-6)
        for _ in 0..<200 { smoother.update(meanSquare: 1) }
        #expect(abs(smoother.level - 1) < 1e-6)
    }

    @Test func peakIsFedAsItsSquare() {
        var fromPeak = LevelSmoother(), fromSquare = LevelSmoother()
        for _ in 0..<100 {
            fromPeak.update(peak: 0.5)
            fromSquare.update(meanSquare: 0.25)
        }
        #expect(fromPeak == fromSquare)
        // 20·log10(0.5) = −6.02 dB → 0.8997.
        #expect(abs(fromPeak.level - (1 + 20 * log10(0.5) / 60)) < 1e-6)
    }

    @Test(arguments: [0.0, -1.0, Double.nan])
    func silenceAndNonsenseNeverPoisonTheState(meanSquare: Double) {
        var smoother = LevelSmoother()
        for _ in 0..<100 { smoother.update(meanSquare: meanSquare) }
        #expect(smoother.decibels == LevelSmoother.silenceDecibels)
        // A sound after it still registers.
        for _ in 0..<100 { smoother.update(meanSquare: 1) }
        #expect(smoother.level > 0.99)
    }

    @Test func levelsAreClampedToZeroOne() {
        #expect(ChannelLevels(seconds: 0, left: 1.7, right: -0.2) == ChannelLevels(seconds: 0, left: 1, right: 0))
        #expect(ChannelLevels(seconds: 0, left: .nan, right: .infinity) == ChannelLevels(seconds: 0, left: 0, right: 1))
    }
}
