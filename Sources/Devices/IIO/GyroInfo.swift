import Motion
/// The gyroscope that belongs with an accelerometer, and how its raw counts
/// become rad/s in the accelerometer's device frame.
///
/// IIO ABI: rad/s = (raw + offset) × scale per axis (`in_anglvel_*`). The
/// mount matrix takes the chip's axes to the device frame as it does for the
/// accelerometer, but an angular velocity is a pseudovector: under an
/// improper matrix (det −1, e.g. −I for a driver that reports the
/// acceleration's opposite) it turns as det(M)·M·ω, or the fused attitude
/// would rotate the wrong way (checked against scripted data in
/// DevicesTests/GyroInfoTests).
public struct GyroInfo: Sendable, Equatable {
    /// How the gyro was paired with the accelerometer (docs/devices.md, "Gyroscope").
    public enum Pairing: String, Sendable, CaseIterable {
        /// `in_anglvel_*` channels on the accelerometer's own device (bmi160, bmi323, mpu6050).
        case sameDevice = "same device"
        /// `<chip>_gyro` beside `<chip>_accel` (st_lsm6dsx), or under the same parent.
        case sibling = "sibling"
        /// HID `gyro_3d` under the same sensor hub as `accel_3d`.
        case sameHub = "same hub"
        /// The same label or udev location (`gyro-display` with `accel-display`).
        case sameLocation = "same location"
    }

    /// libiio's id, e.g. "iio:device1" (the accelerometer's own id when on the same device).
    public var id: String
    /// The driver's `name`, e.g. "gyro_3d".
    public var name: String?
    public var pairing: Pairing
    /// rad/s per raw count, per axis.
    public var scale: SIMD3<Double>
    /// Raw offset per axis.
    public var offset: SIMD3<Double>
    /// The files the scale came from.
    public var scaleSource: String
    /// The matrix taking the gyro's axes to the accelerometer's device frame.
    public var mountMatrix: MountMatrix
    /// Where it came from: "in_anglvel_mount_matrix", "mount_matrix", or
    /// "the accelerometer's (…)" when the gyro has none of its own.
    public var mountMatrixSource: String
    /// `sampling_frequency` of the gyro's device, nil without one.
    public var samplingFrequencyHertz: Double?
    /// True when its x, y, z are scan elements.
    public var bufferCapable: Bool

    public init(id: String, name: String?, pairing: Pairing, scale: SIMD3<Double>, offset: SIMD3<Double>,
                scaleSource: String, mountMatrix: MountMatrix, mountMatrixSource: String,
                samplingFrequencyHertz: Double?, bufferCapable: Bool) {
        self.id = id
        self.name = name
        self.pairing = pairing
        self.scale = scale
        self.offset = offset
        self.scaleSource = scaleSource
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        self.samplingFrequencyHertz = samplingFrequencyHertz
        self.bufferCapable = bufferCapable
    }

    /// +1 for a proper matrix, −1 for an improper one (a reflection).
    public var handedness: Double { mountMatrix.handedness }

    /// Converts raw counts to rad/s in the accelerometer's device frame.
    @inline(__always)
    public func rotationRate(raw: SIMD3<Double>) -> SIMD3<Double> {
        mountMatrix.apply((raw + offset) * scale) * handedness
    }

    /// "iio:device1 (gyro_3d)": how messages name the gyro.
    public var displayName: String {
        if let name { return "\(id) (\(name))" }
        return id
    }

    /// The trace header's gyro block.
    public var traceHeader: TraceGyroHeader {
        TraceGyroHeader(name: name, pairing: pairing.rawValue, scale: scale, offset: offset,
                        mountMatrix: mountMatrix, mountMatrixSource: mountMatrixSource,
                        samplingFrequencyHertz: samplingFrequencyHertz)
    }
}
