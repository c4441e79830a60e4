import Glibc

/// Full attitude from a gyroscope and an accelerometer (6 axes, no
/// magnetometer), designed from the ideas of the VQF paper (D. Laidig,
/// T. Seel, Information Fusion 91:187–204, 2023; docs/motion.md says what
/// was taken, what was changed and how the defaults were chosen):
///
/// - Strapdown: the bias-corrected rate turns a quaternion `gyroAttitude`
///   (device → an almost-inertial frame I) every sample, with the sample's
///   own Δt; nothing else ever turns it, so it follows the hand with no lag.
/// - The acceleration, turned into I, is low-passed there by a
///   second-order Butterworth with the time constant
///   `accelerationTimeConstantSeconds` (3 s; shorter, down to
///   `minimumTimeConstantSeconds`, while the device turns much more than it
///   accelerates, and at rest). In I gravity
///   stands still (up to the gyro's slow drift) while the device's own
///   accelerations, which come and go within seconds when a device is
///   carried or shaken, average out: the filtered vector is gravity without
///   them, and without lagging a real tilt (the tilt is the gyro's).
/// - Inclination correction: a second quaternion `inclination` (I → the
///   reference frame E, z up) turns that filtered vector exactly onto E's
///   z axis every sample; it only ever turns about horizontal axes, so the
///   heading stays the gyro's (relative, drifting slowly).
/// - Gyro bias, a Kalman filter on three numbers with a full 3×3
///   covariance: in motion the inclination correction per second is the
///   drift the bias error causes, seen through the same low-pass (so the
///   measurement's matrix is the low-passed device-to-E rotation's
///   horizontal rows); at rest the low-passed rate is the bias itself,
///   measured with a much smaller noise, so it is learnt within about a
///   second. Clipped to ±`biasLimitRadiansPerSecond` per axis.
/// - Rest: the rate and the acceleration both within a small distance of
///   their own low-passed values (not of zero and g: an uncalibrated
///   chip's bias does not matter) for `restSeconds`.
///
/// Causal, one sample at a time, no allocation; a value type. Gaps are the
/// caller's to detect (`TiltPipeline`): `restart` starts over from an
/// acceleration keeping the bias (it is the chip's), `correct` takes a
/// sample without a rate, `turn` bridges a short gap in the rates.
public struct AttitudeFusion: Sendable {
    /// The tuning; the defaults are the ones docs/motion.md measures.
    public struct Settings: Sendable, Equatable {
        /// τ of the acceleration's low-pass in the almost-inertial frame,
        /// seconds: how long a linear acceleration may last and still be
        /// rejected, and how fast gyro drift is corrected.
        public var accelerationTimeConstantSeconds: Double
        /// The shortest τ the low-pass may take while the acceleration is
        /// quiet compared with the rotation (seconds; see `fullRatio`).
        public var minimumTimeConstantSeconds: Double
        /// The ratio of the acceleration's deviation from its filtered value
        /// (RMS over about 1 s, as a fraction of g) to the rotation rate (RMS
        /// over 1 s plus 10°/s, in rad/s) at and above which the low-pass
        /// takes the full `accelerationTimeConstantSeconds`; below it τ
        /// shrinks as the ratio's square root (down to the minimum): gyro
        /// errors grow with the rotation, linear accelerations are what the
        /// long τ is for (seconds per radian).
        public var fullRatio: Double
        /// τ of the low-pass at rest, seconds: nothing accelerates then.
        public var restTimeConstantSeconds: Double
        /// τ of the rate and acceleration means rest is judged against, seconds.
        public var restFilterTimeConstantSeconds: Double
        /// Rest: the rate within this of its mean (rad/s).
        public var restRateRadiansPerSecond: Double
        /// Rest: the acceleration within this fraction of its magnitude of its mean.
        public var restAccelerationFraction: Double
        /// Rest: how long both must hold, seconds.
        public var restSeconds: Double
        /// The bias's uncertainty with nothing known (1 σ, rad/s): its
        /// starting value, and the ceiling it grows back to.
        public var biasInitialSigmaRadiansPerSecond: Double
        /// The bias uncertainty a long motion settles at (1 σ, rad/s).
        public var biasMotionSigmaRadiansPerSecond: Double
        /// The bias uncertainty a long rest settles at (1 σ, rad/s).
        public var biasRestSigmaRadiansPerSecond: Double
        /// How long without information until the uncertainty is back to
        /// the initial one (seconds): the bias drifts with temperature.
        public var biasForgettingSeconds: Double
        /// The bias estimate stays within ± this per axis (rad/s).
        public var biasLimitRadiansPerSecond: Double
        /// A gap in the gyro's readings up to this long keeps the filter's
        /// state (`TiltPipeline`); a longer one is unknown turning, and the
        /// pipeline restarts the fusion when readings return (seconds).
        public var bridgeSeconds: Double

        public init(accelerationTimeConstantSeconds: Double = 3.0,
                    minimumTimeConstantSeconds: Double = 1.0,
                    fullRatio: Double = 0.16,
                    restTimeConstantSeconds: Double = 0.5,
                    restFilterTimeConstantSeconds: Double = 0.5,
                    restRateRadiansPerSecond: Double = 2 * .pi / 180,
                    restAccelerationFraction: Double = 0.05,
                    restSeconds: Double = 1.5,
                    biasInitialSigmaRadiansPerSecond: Double = 0.5 * .pi / 180,
                    biasMotionSigmaRadiansPerSecond: Double = 0.3 * .pi / 180,
                    biasRestSigmaRadiansPerSecond: Double = 0.03 * .pi / 180,
                    biasForgettingSeconds: Double = 100,
                    biasLimitRadiansPerSecond: Double = 20 * .pi / 180,
                    bridgeSeconds: Double = 0.05) {
            self.accelerationTimeConstantSeconds = accelerationTimeConstantSeconds
            self.minimumTimeConstantSeconds = minimumTimeConstantSeconds
            self.fullRatio = fullRatio
            self.restTimeConstantSeconds = restTimeConstantSeconds
            self.restFilterTimeConstantSeconds = restFilterTimeConstantSeconds
            self.restRateRadiansPerSecond = restRateRadiansPerSecond
            self.restAccelerationFraction = restAccelerationFraction
            self.restSeconds = restSeconds
            self.biasInitialSigmaRadiansPerSecond = biasInitialSigmaRadiansPerSecond
            self.biasMotionSigmaRadiansPerSecond = biasMotionSigmaRadiansPerSecond
            self.biasRestSigmaRadiansPerSecond = biasRestSigmaRadiansPerSecond
            self.biasForgettingSeconds = biasForgettingSeconds
            self.biasLimitRadiansPerSecond = biasLimitRadiansPerSecond
            self.bridgeSeconds = bridgeSeconds
        }
    }

    /// The tuning in force.
    public let settings: Settings

    /// The attitude, device → reference frame (z up, heading relative), a
    /// unit quaternion: vector part in the x, y, z lanes, scalar in w.
    @inlinable public var quaternion: SIMD4<Double> { Self.product(inclination, gyroAttitude) }
    /// "Up" (the unit vector opposite to gravity) in the device frame.
    @inlinable public var direction: SIMD3<Double> { up }
    /// The gyro bias estimate, rad/s, device frame.
    @inlinable public var bias: SIMD3<Double> { rateBias }
    /// True while the device is judged at rest.
    @inlinable public var isResting: Bool { restForSeconds >= settings.restSeconds }

    /// Device → I, from the gyro alone (x, y, z vector part; w scalar).
    @usableFromInline var gyroAttitude = SIMD4<Double>(0, 0, 0, 1)
    /// I → E: turns the filtered acceleration onto z.
    @usableFromInline var inclination = SIMD4<Double>(0, 0, 0, 1)
    /// The acceleration in I, low-passed (the Butterworth's output), and its
    /// rate of change (the filter's second state).
    @usableFromInline var inertialAcceleration = SIMD3<Double>()
    @usableFromInline var inertialVelocity = SIMD3<Double>()
    /// Seconds since the restart, for the start-up τ.
    @usableFromInline var sinceRestartSeconds = 0.0
    @usableFromInline var up = SIMD3<Double>(0, 0, 1)
    /// The low-passed first two rows of the device → E rotation (E's x and
    /// y axes in the device frame): the bias measurement's matrix.
    @usableFromInline var rowX = SIMD3<Double>(1, 0, 0)
    @usableFromInline var rowY = SIMD3<Double>(0, 1, 0)
    @usableFromInline var rowXVelocity = SIMD3<Double>()
    @usableFromInline var rowYVelocity = SIMD3<Double>()
    @usableFromInline var rateBias = SIMD3<Double>()
    /// The bias covariance, symmetric: diagonal and (xy, xz, yz).
    @usableFromInline var covarianceDiagonal: SIMD3<Double>
    @usableFromInline var covarianceOff = SIMD3<Double>()
    /// Means for rest detection.
    @usableFromInline var rateMean = SIMD3<Double>()
    @usableFromInline var accelerationMean = SIMD3<Double>()
    @usableFromInline var restForSeconds = 0.0
    @usableFromInline var started = false
    /// The acceleration's squared deviation from its filtered value
    /// (relative to g²) and the squared rate, averaged over about 1 s.
    @usableFromInline var disturbance = 0.0
    @usableFromInline var rateLevel = 0.0
    @usableFromInline var levelAlpha = OnePoleCoefficient()
    /// ω² and 2ζω of the low-pass for the last sample.
    @usableFromInline var stepOmegaSquared = 0.0
    @usableFromInline var stepDamping = 0.0
    /// τ of the last sample as a fraction of the full τ.
    @usableFromInline var lastScale = 1.0
    @usableFromInline var restAlpha = OnePoleCoefficient()
    /// ω² and 2ζω of the low-pass at the full τ.
    @usableFromInline let omegaSquared: Double
    @usableFromInline let damping: Double
    @usableFromInline let inverseFullRatio: Double
    @usableFromInline let inverseTimeConstant: Double
    /// The shortest τ right after a restart, seconds.
    @usableFromInline static let startupSeconds = 0.05
    @usableFromInline let minimumScale: Double
    @usableFromInline let restScale: Double
    /// The seconds over which `disturbance` and `rateLevel` average, inverted.
    @usableFromInline static let inverseLevelTimeConstant = 1.0
    /// Added to the rate level: a still device's τ is set by its accelerations (rad/s).
    @usableFromInline static let rateFloor = 10 * Double.pi / 180
    @usableFromInline let inverseRestTimeConstant: Double
    @usableFromInline let restRateSquared: Double
    @usableFromInline let restFractionSquared: Double
    /// Variance added per second without information, (rad/s)²/s.
    @usableFromInline let biasProcessNoise: Double
    /// Measurement noise densities (variance × seconds) in motion and at rest.
    @usableFromInline let motionNoiseDensity: Double
    @usableFromInline let restNoiseDensity: Double
    @usableFromInline let initialVariance: Double

    public init(settings: Settings = Settings()) {
        precondition(settings.accelerationTimeConstantSeconds > 0 && settings.restFilterTimeConstantSeconds > 0
                     && settings.minimumTimeConstantSeconds > 0 && settings.fullRatio > 0
                     && settings.restTimeConstantSeconds > 0,
                     "time constants and the ratio must be positive")
        self.settings = settings
        // A Butterworth low-pass (ζ = 1/√2) whose cutoff ω = √2/τ.
        let omega = 2.0.squareRoot() / settings.accelerationTimeConstantSeconds
        omegaSquared = omega * omega
        damping = 2.0.squareRoot() * omega
        inverseFullRatio = 1 / settings.fullRatio
        inverseTimeConstant = 1 / settings.accelerationTimeConstantSeconds
        minimumScale = min(1, settings.minimumTimeConstantSeconds / settings.accelerationTimeConstantSeconds)
        restScale = min(1, settings.restTimeConstantSeconds / settings.accelerationTimeConstantSeconds)
        inverseRestTimeConstant = 1 / settings.restFilterTimeConstantSeconds
        restRateSquared = settings.restRateRadiansPerSecond * settings.restRateRadiansPerSecond
        restFractionSquared = settings.restAccelerationFraction * settings.restAccelerationFraction
        initialVariance = settings.biasInitialSigmaRadiansPerSecond * settings.biasInitialSigmaRadiansPerSecond
        biasProcessNoise = initialVariance / max(settings.biasForgettingSeconds, 1e-9)
        // A scalar Kalman filter measuring every Δt with noise density r and
        // process noise q settles at P² = q·r: r = σ⁴/q gives σ.
        motionNoiseDensity = pow(settings.biasMotionSigmaRadiansPerSecond, 4) / biasProcessNoise
        restNoiseDensity = pow(settings.biasRestSigmaRadiansPerSecond, 4) / biasProcessNoise
        covarianceDiagonal = SIMD3(repeating: initialVariance)
    }

    /// Starts over with "up" along `acceleration` and a fresh heading; the
    /// bias and its uncertainty are kept (they belong to the chip).
    // Not inlined into TiltPipeline.process: the accelerometer-only path
    // would pay for the larger function (half its speed, measured).
    @inline(never)
    public mutating func restart(acceleration: SIMD3<Double>) {
        let squared = (acceleration * acceleration).sum()
        let measured = squared > 0 ? acceleration * (1 / squared.squareRoot()) : SIMD3(0, 0, 1)
        gyroAttitude = SIMD4(0, 0, 0, 1)
        inertialAcceleration = squared > 0 ? acceleration : SIMD3(0, 0, 1)
        inertialVelocity = .zero
        inclination = Self.onto(measured)
        up = measured
        let rows = Self.rows(inclination)
        rowX = rows.x
        rowY = rows.y
        rowXVelocity = .zero
        rowYVelocity = .zero
        rateMean = rateBias
        accelerationMean = inertialAcceleration
        restForSeconds = 0
        sinceRestartSeconds = 0
        started = true
    }

    /// One sample: turn by the bias-corrected rate over `intervalSeconds`,
    /// filter the acceleration in I, correct the inclination, learn the bias.
    ///
    /// - Parameters:
    ///   - acceleration: the sample (any units; only directions and ratios count).
    ///   - rotationRate: the gyro, rad/s, same frame.
    ///   - intervalSeconds: time since the previous sample (> 0).
    /// - Returns: the new "up" direction (unit vector, device frame).
    // Not inlined into TiltPipeline.process: the accelerometer-only path
    // would pay for the larger function (half its speed, measured).
    @inline(never)
    @discardableResult
    public mutating func update(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>,
                                intervalSeconds dt: Double) -> SIMD3<Double> {
        if !started { restart(acceleration: acceleration) }
        let restGain = restAlpha.alpha(x: dt * inverseRestTimeConstant)
        detectRest(acceleration: acceleration, rotationRate: rotationRate, gain: restGain, dt: dt)
        gyroAttitude = Self.integrated(gyroAttitude, rate: rotationRate - rateBias, seconds: dt)
        filterAndCorrect(acceleration: acceleration, rotationRate: rotationRate - rateBias, dt: dt, learnsInMotion: true)
        if isResting && dt > 0 { learnAtRest(dt: dt) }
        return up
    }

    /// A sample without a rate (the gyro lagging or stalled): no turn, the
    /// acceleration filtered and the inclination corrected as `update`
    /// would; the bias is not touched and rest is not judged.
    // Not inlined into TiltPipeline.process: the accelerometer-only path
    // would pay for the larger function (half its speed, measured).
    @inline(never)
    @discardableResult
    public mutating func correct(acceleration: SIMD3<Double>, intervalSeconds dt: Double) -> SIMD3<Double> {
        if !started { restart(acceleration: acceleration) }
        restForSeconds = 0
        filterAndCorrect(acceleration: acceleration, rotationRate: .zero, dt: dt, learnsInMotion: false)
        return up
    }

    /// Turns by `rotationRate` (rad/s, the bias removed here) over
    /// `seconds` with no correction: bridging a short gap in the rates.
    // Not inlined into TiltPipeline.process: the accelerometer-only path
    // would pay for the larger function (half its speed, measured).
    @inline(never)
    public mutating func turn(rotationRate: SIMD3<Double>, seconds: Double) {
        gyroAttitude = Self.integrated(gyroAttitude, rate: rotationRate - rateBias, seconds: seconds)
        up = Self.rows(Self.product(inclination, gyroAttitude)).z
    }

    // MARK: - Steps

    @inlinable @inline(__always)
    mutating func detectRest(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>, gain: Double, dt: Double) {
        rateMean += gain * (rotationRate - rateMean)
        accelerationMean += gain * (acceleration - accelerationMean)
        let rateDeviation = rotationRate - rateMean
        let accelerationDeviation = acceleration - accelerationMean
        if (rateDeviation * rateDeviation).sum() < restRateSquared
            && (accelerationDeviation * accelerationDeviation).sum()
                < restFractionSquared * (accelerationMean * accelerationMean).sum() {
            restForSeconds += dt
        } else {
            restForSeconds = 0
        }
    }

    @inlinable @inline(__always)
    mutating func filterAndCorrect(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>, dt: Double, learnsInMotion: Bool) {
        sinceRestartSeconds += dt
        let inI = Self.rotated(acceleration, by: gyroAttitude)
        // τ from how much the acceleration moves around its filtered value
        // (linear accelerations, what τ rejects) against how fast the
        // device turns (gyro errors, what τ is slow to correct).
        let deviation = inI - inertialAcceleration
        let relative = (deviation * deviation).sum() / max((inertialAcceleration * inertialAcceleration).sum(), 1e-12)
        let levelGain = levelAlpha.alpha(x: dt * Self.inverseLevelTimeConstant)
        disturbance += levelGain * (relative - disturbance)
        rateLevel += levelGain * ((rotationRate * rotationRate).sum() - rateLevel)
        let ratio = disturbance.squareRoot() / (rateLevel.squareRoot() + Self.rateFloor)
        var scale = max(minimumScale, min(1, (ratio * inverseFullRatio).squareRoot()))
        // After a restart τ grows with the time since (a quick start
        // that still averages a shake out).
        scale = min(scale, max(sinceRestartSeconds, Self.startupSeconds) * inverseTimeConstant)
        // At rest nothing accelerates: what the gyro got wrong before
        // (a large bias not learnt yet) is corrected quickly.
        if isResting { scale = min(scale, restScale) }
        // The filters' rates of change belong to the old ω: a τ that
        // grows slows them in proportion (the state in units of ω stays the
        // same), or a quick start would carry its early motion on.
        if scale != lastScale {
            let ratio = lastScale / scale
            inertialVelocity *= ratio
            rowXVelocity *= ratio
            rowYVelocity *= ratio
            lastScale = scale
        }
        stepOmegaSquared = omegaSquared / (scale * scale)
        stepDamping = damping / scale
        Self.lowPass(&inertialAcceleration, &inertialVelocity, input: inI, dt: dt,
                     omegaSquared: stepOmegaSquared, damping: stepDamping)
        let inE = Self.rotated(inertialAcceleration, by: inclination)
        let squared = (inE * inE).sum()
        guard squared > 0 else { return }
        let n = inE * (1 / squared.squareRoot())
        // The rotation that takes n onto z: about (n_y, −n_x, 0), in E.
        let correction = Self.onto(n)
        inclination = Self.normalisedQuaternion(Self.product(correction, inclination))
        let rows = Self.rows(Self.product(inclination, gyroAttitude))
        up = rows.z
        // Not while the low-pass is still settling after a restart: its
        // corrections are then the start, not the drift.
        guard learnsInMotion, !isResting, dt > 0,
              sinceRestartSeconds >= settings.accelerationTimeConstantSeconds else { return }
        // The correction per second is the drift the bias error causes, seen
        // through the low-pass: −(low-passed device → E rows)·δb.
        Self.lowPass(&rowX, &rowXVelocity, input: rows.x, dt: dt, omegaSquared: stepOmegaSquared, damping: stepDamping)
        Self.lowPass(&rowY, &rowYVelocity, input: rows.y, dt: dt, omegaSquared: stepOmegaSquared, damping: stepDamping)
        let measured = SIMD2(-n.y, n.x) * (1 / dt)
        learnInMotion(measured: measured, dt: dt)
    }

    /// Kalman step on the bias with the 2-row measurement `measured` = H·δb.
    @inlinable @inline(__always)
    mutating func learnInMotion(measured: SIMD2<Double>, dt: Double) {
        covarianceDiagonal += biasProcessNoise * dt
        let r = motionNoiseDensity / dt
        // P·Hᵀ: columns P·rowX, P·rowY.
        let pX = Self.covarianceTimes(rowX, diagonal: covarianceDiagonal, off: covarianceOff)
        let pY = Self.covarianceTimes(rowY, diagonal: covarianceDiagonal, off: covarianceOff)
        let sXX = (rowX * pX).sum() + r
        let sXY = (rowX * pY).sum()
        let sYY = (rowY * pY).sum() + r
        let inverseDeterminant = 1 / (sXX * sYY - sXY * sXY)
        // K = P·Hᵀ·S⁻¹.
        let kX = (pX * sYY - pY * sXY) * inverseDeterminant
        let kY = (pY * sXX - pX * sXY) * inverseDeterminant
        rateBias += kX * measured.x + kY * measured.y
        clipBias()
        // P −= K·(H·P) = K·(P·Hᵀ)ᵀ.
        covarianceDiagonal -= kX * pX + kY * pY
        covarianceOff -= SIMD3(kX.x * pX.y + kY.x * pY.y, kX.x * pX.z + kY.x * pY.z, kX.y * pX.z + kY.y * pY.z)
    }

    /// Kalman step on the bias measured directly (the low-passed rate at rest).
    @inlinable @inline(__always)
    mutating func learnAtRest(dt: Double) {
        covarianceDiagonal += biasProcessNoise * dt
        let r = restNoiseDensity / dt
        // S = P + r·I, K = P·S⁻¹ (S symmetric: its adjugate over its determinant).
        let a = covarianceDiagonal.x + r, d = covarianceDiagonal.y + r, f = covarianceDiagonal.z + r
        let b = covarianceOff.x, c = covarianceOff.y, e = covarianceOff.z
        let inverseRow0 = SIMD3(d * f - e * e, c * e - b * f, b * e - c * d)
        let inverseRow1 = SIMD3(c * e - b * f, a * f - c * c, b * c - a * e)
        let inverseRow2 = SIMD3(b * e - c * d, b * c - a * e, a * d - b * b)
        let inverseDeterminant = 1 / (a * inverseRow0.x + b * inverseRow0.y + c * inverseRow0.z)
        let innovation = rateMean - rateBias
        // K = P·S⁻¹, row by row of P.
        let p0 = SIMD3(covarianceDiagonal.x, b, c), p1 = SIMD3(b, covarianceDiagonal.y, e),
            p2 = SIMD3(c, e, covarianceDiagonal.z)
        let k0 = (inverseRow0 * p0.x + inverseRow1 * p0.y + inverseRow2 * p0.z) * inverseDeterminant
        let k1 = (inverseRow0 * p1.x + inverseRow1 * p1.y + inverseRow2 * p1.z) * inverseDeterminant
        let k2 = (inverseRow0 * p2.x + inverseRow1 * p2.y + inverseRow2 * p2.z) * inverseDeterminant
        rateBias += SIMD3((k0 * innovation).sum(), (k1 * innovation).sum(), (k2 * innovation).sum())
        clipBias()
        // P = P − K·P = r·K (as S − P = r·I): symmetric by construction.
        covarianceDiagonal = r * SIMD3(k0.x, k1.y, k2.z)
        covarianceOff = r * SIMD3(0.5 * (k0.y + k1.x), 0.5 * (k0.z + k2.x), 0.5 * (k1.z + k2.y))
    }

    @inlinable @inline(__always)
    mutating func clipBias() {
        let limit = settings.biasLimitRadiansPerSecond
        rateBias = rateBias.clamped(lowerBound: SIMD3(repeating: -limit), upperBound: SIMD3(repeating: limit))
    }

    /// One step of x'' = ω²(u − x) − 2ζω·x' (semi-implicit Euler: stable
    /// and accurate for ω·Δt ≪ 1, any Δt).
    @inlinable @inline(__always)
    static func lowPass(_ x: inout SIMD3<Double>, _ v: inout SIMD3<Double>, input: SIMD3<Double>, dt: Double,
                        omegaSquared: Double, damping: Double) {
        v += dt * (omegaSquared * (input - x) - damping * v)
        x += dt * v
    }

    // MARK: - Quaternions (x, y, z vector part, w scalar), device → world

    @inlinable @inline(__always)
    static func covarianceTimes(_ v: SIMD3<Double>, diagonal: SIMD3<Double>, off: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(diagonal.x * v.x + off.x * v.y + off.y * v.z,
              off.x * v.x + diagonal.y * v.y + off.z * v.z,
              off.y * v.x + off.z * v.y + diagonal.z * v.z)
    }

    /// a ⊗ b.
    @inlinable @inline(__always)
    static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
              a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    /// q v q*.
    @inlinable @inline(__always)
    static func rotated(_ v: SIMD3<Double>, by q: SIMD4<Double>) -> SIMD3<Double> {
        let u = SIMD3(q.x, q.y, q.z)
        let t = 2 * cross(u, v)
        return v + q.w * t + cross(u, t)
    }

    /// The rows of q's rotation matrix (q need not be exactly unit).
    @inlinable @inline(__always)
    static func rows(_ q: SIMD4<Double>) -> (x: SIMD3<Double>, y: SIMD3<Double>, z: SIMD3<Double>) {
        let xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z
        let xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z
        let wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z
        return (SIMD3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
                SIMD3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
                SIMD3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)))
    }

    /// The shortest rotation taking the unit vector n onto z.
    @inlinable @inline(__always)
    static func onto(_ n: SIMD3<Double>) -> SIMD4<Double> {
        if n.z > -0.999_999 {
            return normalisedQuaternion(SIMD4(n.y, -n.x, 0, 1 + n.z))
        }
        return SIMD4(1, 0, 0, 0)  // upside down: half a turn about x
    }

    /// q turned by `rate` (device frame) over `seconds`: q ⊗ exp(½ω·Δt).
    @inlinable @inline(__always)
    static func integrated(_ q: SIMD4<Double>, rate: SIMD3<Double>, seconds: Double) -> SIMD4<Double> {
        let half = 0.5 * seconds
        let angleSquared = (rate * rate).sum() * half * half
        let c: Double, s: Double
        if angleSquared < 0.01 {
            // cos and sin(θ)/θ to θ⁴: errors below θ⁶/720 < 2e-9.
            c = 1 - angleSquared * (0.5 - angleSquared * (1.0 / 24))
            s = half * (1 - angleSquared * (1.0 / 6 - angleSquared * (1.0 / 120)))
        } else {
            let angle = angleSquared.squareRoot()
            c = Glibc.cos(angle)
            s = half * Glibc.sin(angle) / angle
        }
        let step = SIMD4(rate.x * s, rate.y * s, rate.z * s, c)
        return normalisedQuaternion(product(q, step))
    }

    @inlinable @inline(__always)
    static func normalisedQuaternion(_ q: SIMD4<Double>) -> SIMD4<Double> {
        let squared = (q * q).sum()
        let deviation = squared - 1
        return q * (abs(deviation) < 1e-3 ? 1 - 0.5 * deviation : 1 / squared.squareRoot())
    }

    @inlinable @inline(__always)
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
