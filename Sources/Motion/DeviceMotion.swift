/// The device's full attitude and motion from the gyro fusion, as
/// CoreMotion's `CMDeviceMotion` gives them (docs/motion.md, "Device
/// motion"). Every vector is in the device frame of `Reading` (x toward the
/// left edge, y toward the bottom edge, z out of the screen), not the
/// screen's: the screen orientation and the neutral pose shape roll and
/// pitch only.
public struct DeviceMotion: Sendable, Equatable {
    /// The attitude: the rotation from the device frame to a reference
    /// frame whose z axis points up (heading relative: where the fusion
    /// started, drifting slowly). Vector part in x, y, z, scalar in w; a
    /// unit quaternion.
    public var attitude: SIMD4<Double>
    /// The direction of gravity (toward the earth), a unit vector: lying face
    /// up (0, 0, −1), upright (0, 1, 0) — CoreMotion's `gravity`, in g.
    public var gravity: SIMD3<Double>
    /// The device's own acceleration apart from gravity, in g, with the sign
    /// of the motion (pushed toward its left edge reads x > 0, as W3C's
    /// `acceleration` and Android's linear acceleration; CoreMotion's
    /// `userAcceleration` has the opposite sign): reading/g + gravity.
    public var userAcceleration: SIMD3<Double>
    /// The gyro's rate with the bias estimate removed, rad/s.
    public var rotationRate: SIMD3<Double>
    /// True while the device is judged at rest (the bias is then learnt).
    public var isResting: Bool
    /// The gyro bias estimate, rad/s (what `rotationRate` had removed).
    public var gyroBias: SIMD3<Double>

    public init(attitude: SIMD4<Double>, gravity: SIMD3<Double>, userAcceleration: SIMD3<Double>,
                rotationRate: SIMD3<Double>, isResting: Bool, gyroBias: SIMD3<Double>) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.isResting = isResting
        self.gyroBias = gyroBias
    }
}
