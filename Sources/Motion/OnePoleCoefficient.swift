import Glibc

/// The step coefficient α = 1 − e^(−x) of a one-pole filter, where
/// x = Δt / τ, computed cheaply for nearly repeated intervals.
///
/// `exp` is the costliest part of a filter step. An identical x reuses the
/// last α; an x within 0.05 of the last computed one (timestamps jittering
/// around a fixed rate) uses e^(−x) = e^(−x₀)·e^(−δ) with e^(−δ) from its
/// Taylor series to the δ⁶ term: the error is below δ⁷/5040 < 2e-13,
/// far under the sensor's noise, and the base x₀ never drifts because only
/// a real `expm1` call moves it.
public struct OnePoleCoefficient: Sendable {
    /// How far x may move from the last exactly computed one before `expm1` runs again.
    public static let seriesRadius = 0.05

    @usableFromInline var baseX = -1.0
    @usableFromInline var baseAlpha = 0.0

    public init() {}

    /// α = 1 − e^(−x) for x ≥ 0.
    @inlinable @inline(__always)
    public mutating func alpha(x: Double) -> Double {
        if x == baseX { return baseAlpha }
        let delta = x - baseX
        if abs(delta) <= OnePoleCoefficient.seriesRadius {
            // Estrin's scheme (independent halves, then δ² and δ⁴) rather
            // than Horner: the same terms with a third of the dependency
            // chain, which every later stage of the sample waits on.
            let d2 = delta * delta
            let decay = ((1 - delta) + d2 * (0.5 - delta * (1.0 / 6)))
                + (d2 * d2) * ((1.0 / 24 - delta * (1.0 / 120)) + d2 * (1.0 / 720))
            return 1 - (1 - baseAlpha) * decay
        }
        baseX = x
        baseAlpha = -Glibc.expm1(-x)
        return baseAlpha
    }
}
