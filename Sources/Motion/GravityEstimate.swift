import Glibc

/// Decides how much each sample may move the filter, from how far its
/// magnitude is from the device's own gravity.
///
/// Strategy (shake, free fall and wrong scales): a still or slowly tilting
/// device reads only gravity, whatever its `scale` attribute claims, so
/// instead of comparing |a| with 9.81 m/s² (which would reject a device
/// reading 25 or 250) the pipeline compares |a|² with this device's own
/// gravity estimate g² (squares spare a square root per sample):
///
/// - g² starts at the first sample's |a|² and follows |a|² with a 2 s time
///   constant, slowed down by the sample's weight while the device is
///   disturbed, so a shake barely moves it. A disturbance that lasts longer
///   than 2 s is not a shake but a wrong estimate (the first sample was
///   taken mid-shake, or the device's scale changed), so the estimate then
///   adapts at full speed again.
/// - The disturbance is the peak of ||a|² − g²| with the peak decaying
///   over 0.15 s, so a shake is judged as a whole: the odd sample in a shake
///   whose magnitude happens to be near g (in a random direction) does not
///   get through. This short memory also decides when the estimate itself
///   may adapt.
/// - The weight reads a second peak of the same quantity. It decays over
///   0.15 s too while a disturbance is brief (a tap, a knock, a quick turn
///   whose magnitude leaves the band for a moment: the filter is back soon
///   after), and over 0.3 s once the disturbance has lasted 0.3 s (a hand
///   carrying or swinging the device: its acceleration changes direction
///   every few hundred milliseconds, and each time passes through |a| ≈ g
///   pointing anywhere, so the longer memory holds through those crossings
///   instead of letting them tilt the output).
/// - While that peak stays within 50 % of g² (|a| between about 0.71 g and
///   1.22 g) a sample has weight 1; beyond, the weight falls as
///   (0.5·g² / peak)², e.g. 0.25 in free fall (|a| ≈ 0, which only shrinks
///   the filtered vector, never turns it) and 0.004 in a 3 g shake.
///   docs/motion.md has the measurements behind these numbers (p95 tilt
///   error and lag on hand-moved recordings with a reference,
///   `bench/accel_only.sh`).
///
/// The low-pass filter multiplies its alpha by the weight: shaking or
/// falling holds the attitude near its last quiet value instead of yanking
/// it, slow tilting passes untouched, and within about half a second of a
/// brief shake (a little longer after a sustained one) the filter runs at
/// full speed again.
public struct GravityEstimate: Sendable {
    /// The default band of |a|² around g² that counts as quiet (relative).
    public static let quietBand = 0.5
    /// The estimate's time constant in seconds.
    public static let timeConstantSeconds = 2.0
    /// How long a disturbance is remembered (decay time constant, seconds).
    public static let disturbanceTimeConstantSeconds = 0.15
    /// How long the weight remembers a sustained disturbance (decay time constant, seconds).
    public static let sustainedDisturbanceTimeConstantSeconds = 0.3
    /// A disturbance that has lasted this long (seconds) is sustained.
    public static let sustainedAfterSeconds = 0.3
    /// A disturbance longer than this (seconds) makes the estimate adapt at full speed.
    public static let longestShakeSeconds = 2.0

    /// The current estimate of the device's gravity magnitude (input units),
    /// 0 before the first sample.
    public var magnitude: Double { estimateSquared.squareRoot() }

    @usableFromInline var estimateSquared = 0.0
    @usableFromInline var disturbance = 0.0
    /// The peak the weight reads (`sustainedDisturbanceTimeConstantSeconds`).
    @usableFromInline var holdDisturbance = 0.0
    @usableFromInline var initialised = false
    @usableFromInline var disturbedSeconds = 0.0
    /// The interval the two decay factors below were last computed for:
    /// samples mostly arrive at one fixed rate, so they are usually reused
    /// as they are (the same input gives the same factors, bit for bit).
    @usableFromInline var cachedElapsedSeconds = -1.0
    @usableFromInline var cachedKeep = 0.0
    @usableFromInline var cachedSustainedKeep = 0.0
    @usableFromInline var cachedGain = 0.0

    /// The band of |a|² around g² that counts as quiet (relative to g²).
    public let band: Double

    /// - Parameter band: the quiet band (> 0), `quietBand` by default.
    public init(band: Double = GravityEstimate.quietBand) {
        precondition(band > 0 && band.isFinite, "the quiet band must be positive")
        self.band = band
    }

    /// Takes one sample into the estimate and returns its weight in [0, 1].
    ///
    /// - Parameters:
    ///   - squaredMagnitude: |a|² of the sample.
    ///   - elapsedSeconds: time since the previous sample (0 on a restart).
    @inlinable @inline(__always)
    public mutating func weigh(squaredMagnitude: Double, elapsedSeconds: Double) -> Double {
        guard initialised else {
            estimateSquared = squaredMagnitude
            initialised = squaredMagnitude > 0
            return 1
        }
        if elapsedSeconds != cachedElapsedSeconds {
            cachedElapsedSeconds = elapsedSeconds
            cachedKeep = GravityEstimate.decay(elapsedSeconds * (1 / GravityEstimate.disturbanceTimeConstantSeconds))
            cachedSustainedKeep = GravityEstimate.decay(
                elapsedSeconds * (1 / GravityEstimate.sustainedDisturbanceTimeConstantSeconds))
            cachedGain = 1 - GravityEstimate.decay(elapsedSeconds * (1 / GravityEstimate.timeConstantSeconds))
        }
        let deviation = abs(squaredMagnitude - estimateSquared)
        disturbance = max(deviation, disturbance * cachedKeep)
        let holdKeep = disturbedSeconds >= GravityEstimate.sustainedAfterSeconds ? cachedSustainedKeep : cachedKeep
        holdDisturbance = max(deviation, holdDisturbance * holdKeep)
        let band = self.band * estimateSquared
        var weight = 1.0
        var adaptation = 1.0
        if holdDisturbance > band {
            let ratio = band / holdDisturbance
            weight = ratio * ratio
        }
        if disturbance > band {
            disturbedSeconds += elapsedSeconds
            if disturbedSeconds < GravityEstimate.longestShakeSeconds {
                let ratio = band / disturbance
                adaptation = ratio * ratio
            }
        } else {
            disturbedSeconds = 0
        }
        estimateSquared += cachedGain * adaptation * (squaredMagnitude - estimateSquared)
        return weight
    }

    /// e^(−x) for x ≥ 0, to about 4e-6 below x = 0.1 (a cubic, no libm
    /// call): these time constants shape a heuristic, unlike the low-pass
    /// filter's, which must be exact for irregular intervals.
    @inlinable @inline(__always)
    static func decay(_ x: Double) -> Double {
        x < 0.1 ? 1 - x * (1 - x * (0.5 - x * (1.0 / 6))) : Glibc.exp(-x)
    }
}
