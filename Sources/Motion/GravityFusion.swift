/// The direction of gravity from a gyroscope and an accelerometer: a
/// complementary filter on the gravity vector (docs/motion.md, "Gyroscope
/// fusion", says why this design and not Madgwick, Mahony, VQF or an EKF).
///
/// Each step first turns the estimate with the gyroscope — a direction
/// fixed in the world, seen from a body turning at ω, moves as v̇ = v × ω —
/// so it follows the hand with no lag, then pulls it toward the measured
/// acceleration's direction with the one-pole gain 1 − e^(−Δt/τ), so the
/// gyroscope's drift is corrected on the time scale τ while the
/// accelerometer's noise and brief accelerations are averaged over τ:
///
/// - Real Δt: the caller passes each sample's interval; a gap or a backwards
///   timestamp is the caller's to detect, and `restart` starts over.
/// - Fast start: for `startupSeconds` after a restart τ ramps up from
///   `startupTimeConstantSeconds` and only the weight (not the angle)
///   limits the correction, so a filter started mid-motion converges within
///   a fraction of a second.
/// - Rest: once |a| has stayed within 5 % from one sample to the next and
///   the gyro within `stillRadiansPerSecond` of its bias — or, for a large
///   bias not learned yet, within that of its own recent mean with the
///   acceleration's direction within 1.5° of its recent mean — for
///   `restSeconds`, the device cannot be
///   accelerating, so the correction runs with the short
///   `restTimeConstantSeconds`: what the gyro got wrong during a motion is
///   gone a fraction of a second after the hand stops.
/// - Acceleration rejection: the correction is scaled by the caller's
///   weight (|a| far from g: shakes, free fall, see `GravityEstimate`) and
///   skipped while the acceleration points more than `rejectionRadians`
///   away from the estimate. A disagreement lasting `recoverySeconds` is not
///   a shake but a wrong estimate: the correction then applies unweighted
///   until the two agree again.
/// - Gyro bias: once at rest for `stillSeconds`, the bias follows the
///   measured rate with time constant `biasTimeConstantSeconds`; a chip
///   reading 10–20 °/s at rest (an uncalibrated mpu6050) is learned as well
///   as one reading 1 °/s.
///
/// A value type with no allocation and one square root per step (a second
/// only when |v| strays by more than 0.1 % from 1: after a large
/// correction); libm's
/// `exp` runs only where Δt/τ ≥ 0.1 (the start-up ramp's short τ, or long
/// intervals), elsewhere a cubic stands in (`GravityEstimate.decay`).
public struct GravityFusion: Sendable {
    /// The tuning; the defaults are the ones measured in docs/motion.md.
    public struct Settings: Sendable, Equatable {
        /// τ of the accelerometer correction, seconds.
        public var timeConstantSeconds: Double
        /// τ right after a restart, ramping to `timeConstantSeconds`.
        public var startupTimeConstantSeconds: Double
        /// How long the start-up ramp lasts, seconds.
        public var startupSeconds: Double
        /// Accelerations further than this from the estimate are ignored (radians).
        public var rejectionRadians: Double
        /// After this long ignoring the accelerometer, trust it again (seconds).
        public var recoverySeconds: Double
        /// A rate within this of the bias counts as still (rad/s).
        public var stillRadiansPerSecond: Double
        /// Stillness needed before the bias adapts (seconds).
        public var stillSeconds: Double
        /// The bias estimate's time constant while still (seconds).
        public var biasTimeConstantSeconds: Double
        /// Stillness that counts as rest (seconds).
        public var restSeconds: Double
        /// τ of the correction at rest, seconds.
        public var restTimeConstantSeconds: Double
        /// A gap in the gyro's readings (a gyro lagging or stalled) up to
        /// this long keeps the filter's state: its samples are corrected
        /// from the accelerometer alone and, once the next reading arrives,
        /// the estimate turns by the mean of the rates either side over the
        /// gap (a rate barely changes in a few samples). A longer gap's
        /// turn is unknown: the caller filters the accelerometer alone from
        /// there and restarts the fusion when readings return (seconds).
        public var bridgeSeconds: Double

        public init(timeConstantSeconds: Double = 1.0, startupTimeConstantSeconds: Double = 0.05,
                    startupSeconds: Double = 1.0, rejectionRadians: Double = 10 * .pi / 180,
                    recoverySeconds: Double = 1.5, stillRadiansPerSecond: Double = 3 * .pi / 180,
                    stillSeconds: Double = 1.0, biasTimeConstantSeconds: Double = 2.0,
                    restSeconds: Double = 0.1, restTimeConstantSeconds: Double = 0.2,
                    bridgeSeconds: Double = 0.05) {
            self.timeConstantSeconds = timeConstantSeconds
            self.startupTimeConstantSeconds = startupTimeConstantSeconds
            self.startupSeconds = startupSeconds
            self.rejectionRadians = rejectionRadians
            self.recoverySeconds = recoverySeconds
            self.stillRadiansPerSecond = stillRadiansPerSecond
            self.stillSeconds = stillSeconds
            self.biasTimeConstantSeconds = biasTimeConstantSeconds
            self.restSeconds = restSeconds
            self.restTimeConstantSeconds = restTimeConstantSeconds
            self.bridgeSeconds = bridgeSeconds
        }
    }

    /// The tuning in force.
    public let settings: Settings
    /// The estimated direction of the accelerometer's reading at rest
    /// ("up", a unit vector in the device frame); zero before the first sample.
    @inlinable public var direction: SIMD3<Double> { up }
    /// The estimated gyroscope bias, rad/s.
    @inlinable public var bias: SIMD3<Double> { rateBias }
    /// True while the accelerometer is being ignored as disagreeing.
    @inlinable public var isRejecting: Bool { rejectedSeconds > 0 && rejectedSeconds < settings.recoverySeconds }

    @usableFromInline var up = SIMD3<Double>()
    @usableFromInline var rateBias = SIMD3<Double>()
    @usableFromInline var sinceRestartSeconds = 0.0
    @usableFromInline var rejectedSeconds = 0.0
    @usableFromInline var stillForSeconds = 0.0
    @usableFromInline let cosineRejection: Double
    @usableFromInline let stillSquared: Double
    /// 1/τ of the settings' time constants, so a step multiplies instead of
    /// dividing (a division costs as much as the rest of a gain).
    @usableFromInline let inverseTimeConstant: Double
    @usableFromInline let inverseRestTimeConstant: Double
    @usableFromInline let inverseBiasTimeConstant: Double
    @usableFromInline let inverseStartupSeconds: Double
    /// The gain for the last interval after start-up (intervals repeat).
    @usableFromInline var cachedIntervalSeconds = -1.0
    @usableFromInline var cachedGain = 0.0
    @usableFromInline var cachedRestGain = 0.0
    @usableFromInline var lastSquared = 0.0
    /// Recent means of the raw rate and of the acceleration's direction, for rest detection.
    @usableFromInline var rateMean = SIMD3<Double>()
    @usableFromInline var directionMean = SIMD3<Double>()
    @usableFromInline var meansValid = false
    @usableFromInline var cachedMeanGain = 0.0
    /// The means' time constant, seconds.
    @usableFromInline static let meanTimeConstantSeconds = 0.2
    @usableFromInline static let inverseMeanTimeConstant = 1 / meanTimeConstantSeconds
    /// Within this of 1, |v|² is normalised by one Newton step for 1/√s
    /// (relative length error ≤ ⅜·(s − 1)² < 4e-7; the direction is exact).
    @usableFromInline static let newtonBand = 1e-3
    /// (1.5°)²: how far the direction may stray from its mean at rest (squared chord).
    @usableFromInline static let directionSteadySquared = 0.026 * 0.026
    /// How much |a|² may change between two samples of a still device (relative).
    @usableFromInline static let steadyBand = 0.05

    public init(settings: Settings = Settings()) {
        precondition(settings.timeConstantSeconds > 0 && settings.startupTimeConstantSeconds > 0
                     && settings.restTimeConstantSeconds > 0, "time constants must be positive")
        self.settings = settings
        cosineRejection = Self.cosine(settings.rejectionRadians)
        stillSquared = settings.stillRadiansPerSecond * settings.stillRadiansPerSecond
        inverseTimeConstant = 1 / settings.timeConstantSeconds
        inverseRestTimeConstant = 1 / settings.restTimeConstantSeconds
        inverseBiasTimeConstant = 1 / settings.biasTimeConstantSeconds
        inverseStartupSeconds = settings.startupSeconds > 0 ? 1 / settings.startupSeconds : .infinity
    }

    /// Starts over at the direction of `acceleration` (the bias is kept: it
    /// belongs to the chip, not to the motion).
    @inlinable
    public mutating func restart(acceleration: SIMD3<Double>) {
        let squared = (acceleration * acceleration).sum()
        up = squared > 0 ? acceleration * (1 / squared.squareRoot()) : SIMD3(0, 0, 1)
        sinceRestartSeconds = 0
        lastSquared = squared
        rejectedSeconds = 0
        stillForSeconds = 0
        meansValid = false
    }

    /// One step: turn by the gyro over `intervalSeconds`, then correct
    /// toward the acceleration.
    ///
    /// - Parameters:
    ///   - acceleration: the sample, any units.
    ///   - rotationRate: the gyro, rad/s, same frame.
    ///   - intervalSeconds: time since the previous sample (> 0; 0 does nothing).
    ///   - weight: how much to trust the acceleration, in [0, 1].
    /// - Returns: the new direction (unit vector).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func update(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                intervalSeconds dt: Double, weight: Double) -> SIMD3<Double> {
        let omega = rotationRate - rateBias
        var v = Self.turned(up, omega: omega, seconds: dt)

        let squared = (acceleration * acceleration).sum()
        let measured = squared > 0 ? acceleration * (1 / squared.squareRoot()) : v
        // v is a unit vector to O((|ω|Δt)²) (|v|² = 1 + ¼|v × ω|²Δt⁴ …):
        // far below what the 10° rejection test can notice, so it is not
        // normalised for the test (one square root less per sample).
        let cosine = (measured * v).sum()
        cacheGains(intervalSeconds: dt)
        // Rest: the rate steady around its own mean (whatever the bias), the
        // direction steady around its mean, and |a| steady from sample to
        // sample (not compared with g: after a long shake the magnitude
        // estimate and the caller's weight take a while to recover).
        if !meansValid {
            rateMean = rotationRate
            directionMean = measured
            meansValid = true
        }
        rateMean += cachedMeanGain * (rotationRate - rateMean)
        directionMean += cachedMeanGain * (measured - directionMean)
        let rateNoise = rotationRate - rateMean
        let directionNoise = measured - directionMean
        let steady = abs(squared - lastSquared) <= GravityFusion.steadyBand * squared
        lastSquared = squared
        // Near the bias is rest at once (quick after a motion); steady
        // around its own mean with a steady direction is rest too (a large
        // bias not learned yet).
        if steady && ((omega * omega).sum() < stillSquared
            || ((rateNoise * rateNoise).sum() < stillSquared
                && (directionNoise * directionNoise).sum() < GravityFusion.directionSteadySquared)) {
            stillForSeconds += dt
        } else {
            stillForSeconds = 0
        }
        v += correctionGain(cosine: cosine, intervalSeconds: dt, weight: weight) * (measured - v)
        up = Self.normalised(v)

        if stillForSeconds >= settings.stillSeconds && cosine >= cosineRejection {
            rateBias += min(dt * inverseBiasTimeConstant, 1) * omega
        }
        return up
    }

    /// Second-order step of v̇ = v × ω (ω constant over the interval).
    @inlinable @inline(__always)
    static func turned(_ v: SIMD3<Double>, omega: SIMD3<Double>, seconds dt: Double) -> SIMD3<Double> {
        let first = cross(v, omega)
        return v + dt * first + (0.5 * dt * dt) * cross(first, omega)
    }

    /// The gains for an interval, computed again only when it changes.
    @inlinable @inline(__always)
    mutating func cacheGains(intervalSeconds dt: Double) {
        guard dt != cachedIntervalSeconds else { return }
        cachedIntervalSeconds = dt
        cachedGain = 1 - GravityEstimate.decay(dt * inverseTimeConstant)
        cachedRestGain = 1 - GravityEstimate.decay(dt * inverseRestTimeConstant)
        cachedMeanGain = 1 - GravityEstimate.decay(dt * GravityFusion.inverseMeanTimeConstant)
    }

    /// The weight of the accelerometer's correction for one step: short τ
    /// at rest, the start-up ramp, nothing while rejecting a disagreeing
    /// acceleration (until `recoverySeconds`), else τ scaled by `weight`.
    @inlinable @inline(__always)
    mutating func correctionGain(cosine: Double, intervalSeconds dt: Double, weight: Double) -> Double {
        let gain: Double
        if stillForSeconds >= settings.restSeconds {
            gain = cachedRestGain
            rejectedSeconds = 0
        } else if sinceRestartSeconds < settings.startupSeconds {
            let ramp = sinceRestartSeconds * inverseStartupSeconds
            let tau = settings.startupTimeConstantSeconds
                + ramp * (settings.timeConstantSeconds - settings.startupTimeConstantSeconds)
            gain = (1 - GravityEstimate.decay(dt / tau)) * weight
        } else if cosine < cosineRejection {
            rejectedSeconds += dt
            gain = rejectedSeconds < settings.recoverySeconds ? 0 : cachedGain
        } else {
            rejectedSeconds = 0
            gain = cachedGain * weight
        }
        sinceRestartSeconds += dt
        return gain
    }

    /// `v` scaled to length 1. Rescaling changes |v|, never its direction,
    /// so near 1 one Newton step for 1/√s replaces a square root and a division.
    @inlinable @inline(__always)
    static func normalised(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let length = (v * v).sum()
        let deviation = length - 1
        return v * (abs(deviation) < GravityFusion.newtonBand ? 1 - 0.5 * deviation : 1 / length.squareRoot())
    }

    @inlinable @inline(__always)
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// cos(x) for |x| ≤ π by its Taylor series to x¹² (error < 1e-6 there),
    /// once per filter (no libm call needed here).
    static func cosine(_ x: Double) -> Double {
        var term = 1.0
        var sum = 1.0
        for n in stride(from: 2, through: 24, by: 2) {
            term *= -x * x / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
}
