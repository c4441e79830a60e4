/// Gaps in the gyroscope's readings (a gyro lagging behind the
/// accelerometer or stalled, so the capture leaves the rate out of a sample):
/// such a sample is corrected from the accelerometer alone with the filter's
/// state kept, and a short gap's turn is applied once the next reading
/// arrives (`TiltPipeline`, `Settings.bridgeSeconds`).
extension GravityFusion {
    /// An accelerometer-only step for a sample without a gyro reading (a
    /// gyro lagging or stalled): no turn, the correction toward the
    /// acceleration as `update` would apply it outside rest (weighted,
    /// rejecting a disagreeing acceleration), and the rest of the state
    /// (bias, rejection, start-up) kept, so the filter goes on where it was
    /// when the gyro's readings come back.
    ///
    /// - Parameters: as `update`, without the rate.
    /// - Returns: the new direction (unit vector).
    @inlinable
    @discardableResult
    public mutating func correct(acceleration: SIMD3<Double>, intervalSeconds dt: Double,
                                 weight: Double) -> SIMD3<Double> {
        let squared = (acceleration * acceleration).sum()
        guard squared > 0 else { return up }
        let measured = acceleration * (1 / squared.squareRoot())
        cacheGains(intervalSeconds: dt)
        lastSquared = squared
        // Without the gyro, rest cannot be told from a smooth motion: the
        // short rest τ must not pull toward what may be a shake.
        stillForSeconds = 0
        let gain = correctionGain(cosine: (measured * up).sum(), intervalSeconds: dt, weight: weight)
        up = Self.normalised(up + gain * (measured - up))
        return up
    }

    /// Turns the estimate by `rotationRate` (rad/s, the bias removed here)
    /// over `seconds`, with no correction: bridging a short gap in the
    /// gyro's readings once the next one has arrived.
    @inlinable
    public mutating func turn(rotationRate: SIMD3<Double>, seconds: Double) {
        up = Self.normalised(Self.turned(up, omega: rotationRate - rateBias, seconds: seconds))
    }
}
