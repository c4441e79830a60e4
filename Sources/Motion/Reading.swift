/// One accelerometer sample in the device frame, with the gyroscope's
/// angular velocity when the device has one.
///
/// The device frame is the one iio-sensor-proxy and the hwdb quirks are tuned
/// against (after scale, offset and the mount matrix): upright in its normal
/// orientation the device reads about (0, −g, 0); lying face up, z > 0.
public struct Reading: Sendable, Equatable {
    /// When the sample was taken, in nanoseconds on the source's clock
    /// (CLOCK_MONOTONIC for live capture, the file's own time for replays).
    public var timestampNanoseconds: Int64
    /// Acceleration in m/s², x, y, z in the device frame.
    public var acceleration: SIMD3<Double>
    /// Angular velocity in rad/s about x, y, z of the same device frame
    /// (right-handed: positive is counter-clockwise looking down the axis),
    /// nil when the source has no gyroscope. Optional so that readings
    /// without a gyro keep today's accelerometer-only path exactly.
    public var rotationRate: SIMD3<Double>?

    public init(timestampNanoseconds: Int64, acceleration: SIMD3<Double>,
                rotationRate: SIMD3<Double>? = nil) {
        self.timestampNanoseconds = timestampNanoseconds
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}
