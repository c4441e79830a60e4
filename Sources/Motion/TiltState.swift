/// The attitude tiltd reports for one sample, in the screen's frame.
public struct TiltState: Sendable, Equatable {
    /// The sample's own timestamp in nanoseconds (see `Reading`).
    public var timestampNanoseconds: Int64
    /// Roll in radians, CoreMotion's convention: right edge down is positive.
    /// Continuous across samples, so it may leave (−π, π].
    public var roll: Double
    /// Pitch in radians, CoreMotion's convention: upright is +π/2.
    /// Continuous across samples, so it may leave [−π/2, π/2].
    public var pitch: Double
    /// The discrete orientation as iio-sensor-proxy would report it; `nil`
    /// ("undefined") until the classifier has made its first decision.
    public var orientation: ScreenOrientation?
    /// The full attitude and motion while the gyro is fused; nil without a
    /// gyro (accelerometer-only devices, `--no-gyro`, a long gyro gap).
    public var motion: DeviceMotion?

    public init(timestampNanoseconds: Int64, roll: Double, pitch: Double,
                orientation: ScreenOrientation?, motion: DeviceMotion? = nil) {
        self.timestampNanoseconds = timestampNanoseconds
        self.roll = roll
        self.pitch = pitch
        self.orientation = orientation
        self.motion = motion
    }
}
