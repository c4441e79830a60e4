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
    /// gyro (accelerometer-only devices, the gyro turned off, a long gyro gap).
    @inlinable public var motion: DeviceMotion? {
        get { motionBox?.motion }
        set { motionBox = newValue.map(DeviceMotionBox.init) }
    }

    /// The motion, kept out of line: a `DeviceMotion` is 192 bytes, and
    /// carried in the state it made every state, copied several times a
    /// sample, 224 bytes, which cost the accelerometer-only pipeline, which
    /// never has a motion, 30–50 % of its speed (docs/motion.md,
    /// "Performance"). Never mutated once in a state (`motion`'s setter
    /// boxes anew); `TiltPipeline` refills a box only while it holds the
    /// only reference.
    @usableFromInline var motionBox: DeviceMotionBox?

    public init(timestampNanoseconds: Int64, roll: Double, pitch: Double,
                orientation: ScreenOrientation?, facing: Facing? = nil, motion: DeviceMotion? = nil) {
        self.init(timestampNanoseconds: timestampNanoseconds, roll: roll, pitch: pitch, orientation: orientation,
                  facing: facing, motionBox: motion.map(DeviceMotionBox.init))
    }

    @inlinable
    init(timestampNanoseconds: Int64, roll: Double, pitch: Double,
         orientation: ScreenOrientation?, facing: Facing?, motionBox: DeviceMotionBox?) {
        self.timestampNanoseconds = timestampNanoseconds
        self.roll = roll
        self.pitch = pitch
        self.orientation = orientation
        self.facing = facing
        self.motionBox = motionBox
    }

    public static func == (a: TiltState, b: TiltState) -> Bool {
        a.timestampNanoseconds == b.timestampNanoseconds && a.roll == b.roll && a.pitch == b.pitch
            && a.orientation == b.orientation && a.facing == b.facing && a.motion == b.motion
    }
}

/// A `DeviceMotion` on the heap, for `TiltState.motion`. Sendable because
/// it is written only while one reference exists (checked by
/// `isKnownUniquelyReferenced`, as copy-on-write collections are).
@usableFromInline
final class DeviceMotionBox: @unchecked Sendable {
    @usableFromInline var motion: DeviceMotion

    @usableFromInline
    init(_ motion: DeviceMotion) {
        self.motion = motion
    }
}
