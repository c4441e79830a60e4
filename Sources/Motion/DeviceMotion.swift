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
    @inlinable public var attitude: SIMD4<Double> {
        get { SIMD4(Double(storage.0), Double(storage.1), Double(storage.2), Double(storage.3)) }
        set { (storage.0, storage.1, storage.2, storage.3) = (Float(newValue.x), Float(newValue.y), Float(newValue.z), Float(newValue.w)) }
    }
    /// The direction of gravity (toward the earth), a unit vector: lying face
    /// up (0, 0, −1), upright (0, 1, 0) — CoreMotion's `gravity`, in g.
    @inlinable public var gravity: SIMD3<Double> {
        get { SIMD3(Double(storage.4), Double(storage.5), Double(storage.6)) }
        set { (storage.4, storage.5, storage.6) = (Float(newValue.x), Float(newValue.y), Float(newValue.z)) }
    }
    /// The device's own acceleration apart from gravity, in g, with the sign
    /// of the motion (pushed toward its left edge reads x > 0, as W3C's
    /// `acceleration` and Android's linear acceleration; CoreMotion's
    /// `userAcceleration` has the opposite sign): reading/g + gravity.
    @inlinable public var userAcceleration: SIMD3<Double> {
        get { SIMD3(Double(storage.7), Double(storage.8), Double(storage.9)) }
        set { (storage.7, storage.8, storage.9) = (Float(newValue.x), Float(newValue.y), Float(newValue.z)) }
    }
    /// The gyro's rate with the bias estimate removed, rad/s.
    @inlinable public var rotationRate: SIMD3<Double> {
        get { SIMD3(Double(storage.10), Double(storage.11), Double(storage.12)) }
        set { (storage.10, storage.11, storage.12) = (Float(newValue.x), Float(newValue.y), Float(newValue.z)) }
    }
    /// The gyro bias estimate, rad/s (what `rotationRate` had removed).
    @inlinable public var gyroBias: SIMD3<Double> {
        get { SIMD3(Double(storage.13), Double(storage.14), Double(storage.15)) }
        set { (storage.13, storage.14, storage.15) = (Float(newValue.x), Float(newValue.y), Float(newValue.z)) }
    }
    /// True while the device is judged at rest (the bias is then learnt).
    public var isResting: Bool

    /// The sixteen numbers in single precision (7 significant digits, far
    /// beyond the sensors' and the output's 4–6 decimals): 16 doubles made
    /// every `TiltState` large enough to be copied by memcpy several times a
    /// sample, which cost the accelerometer-only pipeline 30–50 % of its
    /// speed (bench/pipeline_ab.py) although it never carries a motion.
    @usableFromInline var storage: (Float, Float, Float, Float, Float, Float, Float, Float,
                                    Float, Float, Float, Float, Float, Float, Float, Float)

    @inlinable
    public init(attitude: SIMD4<Double>, gravity: SIMD3<Double>, userAcceleration: SIMD3<Double>,
                rotationRate: SIMD3<Double>, isResting: Bool, gyroBias: SIMD3<Double>) {
        let a = SIMD4<Float>(attitude), g = SIMD3<Float>(gravity), u = SIMD3<Float>(userAcceleration),
            r = SIMD3<Float>(rotationRate), b = SIMD3<Float>(gyroBias)
        storage = (a.x, a.y, a.z, a.w, g.x, g.y, g.z, u.x, u.y, u.z, r.x, r.y, r.z, b.x, b.y, b.z)
        self.isResting = isResting
    }

    public static func == (a: DeviceMotion, b: DeviceMotion) -> Bool {
        a.attitude == b.attitude && a.gravity == b.gravity && a.userAcceleration == b.userAcceleration
            && a.rotationRate == b.rotationRate && a.gyroBias == b.gyroBias && a.isResting == b.isResting
    }
}
