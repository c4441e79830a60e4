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
    /// Which edge points up, with iio-sensor-proxy's names (what its
    /// `AccelerometerOrientation` would say, but held, with hysteresis and
    /// no decision while shaking: `OrientationTracker`); kept while the
    /// device lies flat; `nil` ("undefined") until the first decision.
    public var orientation: ScreenOrientation?
    /// Which way the device faces while lying flat (`OrientationTracker`),
    /// nil otherwise; the JSON Lines' `orientation` says it instead of the
    /// edge meanwhile.
    public var facing: Facing?
    /// The full attitude and motion while the gyro is fused; nil without a
    /// gyro (accelerometer-only devices, `Setting.noGyro`, a long gyro gap).
    public var motion: DeviceMotion?

    public init(timestampNanoseconds: Int64, roll: Double, pitch: Double,
                orientation: ScreenOrientation?, facing: Facing? = nil, motion: DeviceMotion? = nil) {
        self.timestampNanoseconds = timestampNanoseconds
        self.roll = roll
        self.pitch = pitch
        self.orientation = orientation
        self.facing = facing
        self.motion = motion
    }
}
