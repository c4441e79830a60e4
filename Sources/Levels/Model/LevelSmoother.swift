#if canImport(Glibc)
import Glibc
#endif

/// The LARSBar demo's level mapping for one channel: a power in dB, smoothed
/// exponentially per update, mapped linearly to 0…1.
///
/// The original (CONTROLS.md §1) takes dB = 10·log10(mean square) of each
/// update's samples, smooths with dB ← dB + 0.2·(new − dB) and shows
/// level = 1 + dB/60 (−60 dB → 0, 0 dB → 1), clamped.
public struct LevelSmoother: Sendable, Equatable {
    /// The smoothing weight of each new update (the original's 0.2).
    public static let weight = 0.2
    /// The dB that maps to level 0.
    public static let floorDecibels = -60.0
    /// The quietest dB fed to the smoother. Silence is −∞ dB, which would
    /// stick the smoothed value at −∞ (and make it NaN on the next sound);
    /// −100 dB is far enough below the −60 dB floor that leaving silence
    /// still starts from an unlit row.
    public static let silenceDecibels = -100.0

    /// The smoothed power in dB.
    public private(set) var decibels: Double

    /// Starts from silence (level 0).
    public init() { decibels = LevelSmoother.silenceDecibels }

    /// The level 0…1 for the current smoothed power.
    public var level: Double { ChannelLevels.clamp(1 + decibels / -LevelSmoother.floorDecibels) }

    /// Feeds one update's mean square (of samples in −1…1) and returns the new level.
    ///
    /// - Parameter meanSquare: the update's mean square; 0, negative or NaN
    ///   count as silence.
    /// - Returns: the smoothed level, 0…1.
    @discardableResult
    public mutating func update(meanSquare: Double) -> Double {
        var new = LevelSmoother.silenceDecibels
        if meanSquare > 0 { new = max(10 * log10(meanSquare), LevelSmoother.silenceDecibels) }
        decibels += LevelSmoother.weight * (new - decibels)
        return level
    }

    /// Feeds one update's peak (largest |sample|, 0…1), as a live peak-detect
    /// stream delivers it, and returns the new level.
    ///
    /// The peak stands for the update's amplitude, so its square is fed as
    /// the mean square: 10·log10(peak²) = 20·log10(peak), the peak in dBFS.
    /// For a sine this reads 3.01 dB above its true mean square (a sine's
    /// mean square is peak²/2), i.e. 0.05 higher on the 0…1 scale.
    @discardableResult
    public mutating func update(peak: Double) -> Double {
        update(meanSquare: peak * peak)
    }
}
