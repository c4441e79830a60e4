import Glibc

/// A slowly tracked estimate of the magnitude the device reads at rest, and
/// the weight that gives each sample against it.
///
/// Strategy (shake, free fall and wrong scales): a still device reads only
/// gravity, whatever its `scale` attribute claims, so instead of comparing
/// |a| with 9.81 m/s² (which would reject a device reading 25 or 250) the
/// pipeline compares it with this device's own typical magnitude. The
/// estimate starts at the first sample's |a| and follows |a| with a long time
/// constant (2 s), so it settles on the device's gravity within seconds and a
/// short shake barely moves it. A sample whose magnitude is within 10 % of
/// the estimate gets weight 1; beyond that the weight falls as
/// (0.1 / deviation)², e.g. 0.25 at 20 % off and 0.01 in free fall
/// (|a| ≈ 0). The low-pass filter multiplies its alpha by that weight, so
/// shaking or falling holds the attitude near its last quiet value instead
/// of yanking it, while slow tilting (which keeps |a| ≈ g) passes untouched.
public struct GravityEstimate: Sendable {
    /// The relative deviation from the estimate that still counts as quiet.
    public static let quietBand = 0.1
    /// The estimate's time constant in seconds.
    public static let timeConstantSeconds = 2.0

    /// The current estimate of the device's gravity magnitude (input units),
    /// 0 before the first sample.
    public var magnitude: Double { estimate }

    @usableFromInline var estimate = 0.0
    @usableFromInline var initialised = false
    @usableFromInline var cachedInterval = -1.0
    @usableFromInline var cachedAlpha = 0.0

    public init() {}

    /// How much to trust a sample of magnitude `magnitude`, in [0, 1].
    @inlinable
    public func weight(magnitude: Double) -> Double {
        guard initialised, estimate > 0 else { return 1 }
        let deviation = abs(magnitude - estimate) / estimate
        if deviation <= GravityEstimate.quietBand { return 1 }
        let ratio = GravityEstimate.quietBand / deviation
        return ratio * ratio
    }

    /// Moves the estimate toward `magnitude`.
    ///
    /// - Parameters:
    ///   - magnitude: |a| of the sample.
    ///   - elapsedSeconds: time since the previous sample (0 on a restart).
    @inlinable
    public mutating func observe(magnitude: Double, elapsedSeconds: Double) {
        guard initialised else {
            estimate = magnitude
            initialised = magnitude > 0 && magnitude.isFinite
            return
        }
        if elapsedSeconds != cachedInterval {
            cachedInterval = elapsedSeconds
            cachedAlpha = 1 - Glibc.exp(-elapsedSeconds / GravityEstimate.timeConstantSeconds)
        }
        estimate += cachedAlpha * (magnitude - estimate)
    }
}
