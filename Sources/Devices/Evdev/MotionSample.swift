import Motion

/// One report of a motion sensor (accelerometer + gyroscope), converted.
///
/// Kept whole so the gyroscope can feed fusion; today's pipeline takes
/// `reading` (the accelerometer part).
public struct MotionSample: Sendable, Equatable {
    /// Timestamp and acceleration in m/s², in tiltd's device frame (after the pad matrix).
    public var reading: Reading
    /// Angular rate in rad/s, same frame; nil when the device has no gyroscope.
    public var angularVelocityRadiansPerSecond: SIMD3<Double>?
    /// The raw accelerometer values ABS_X, ABS_Y, ABS_Z.
    public var rawAcceleration: SIMD3<Double>
    /// The raw gyroscope values ABS_RX, ABS_RY, ABS_RZ (zero without one).
    public var rawAngularVelocity: SIMD3<Double>

    public init(reading: Reading, angularVelocityRadiansPerSecond: SIMD3<Double>?,
                rawAcceleration: SIMD3<Double>, rawAngularVelocity: SIMD3<Double>) {
        self.reading = reading
        self.angularVelocityRadiansPerSecond = angularVelocityRadiansPerSecond
        self.rawAcceleration = rawAcceleration
        self.rawAngularVelocity = rawAngularVelocity
    }
}
