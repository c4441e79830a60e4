/// What a format-2 trace says about the gyroscope whose readings its
/// samples carry (header keys `gyro-…`, docs/trace-format.md).
///
/// Every field is optional, as for the accelerometer: a converted recording
/// may only know the unit its gyro reported in.
public struct TraceGyroHeader: Sendable, Equatable {
    /// The gyro's IIO device name, e.g. "bmi160" or "gyro_3d".
    public var name: String?
    /// How it pairs with the accelerometer: "same device", "sibling", "hid hub", "file".
    public var pairing: String?
    /// Per-axis scale, rad/s per raw unit.
    public var scale: SIMD3<Double>?
    /// Per-axis offset in raw units.
    public var offset: SIMD3<Double>?
    /// The matrix that took the rates into the accelerometer's frame
    /// (applied as det(M)·M·ω, since an angular velocity is a pseudovector).
    public var mountMatrix: MountMatrix?
    /// Where that matrix came from.
    public var mountMatrixSource: String?
    /// The gyro's sampling rate in force, Hz.
    public var samplingFrequencyHertz: Double?

    public init(name: String? = nil, pairing: String? = nil, scale: SIMD3<Double>? = nil,
                offset: SIMD3<Double>? = nil, mountMatrix: MountMatrix? = nil,
                mountMatrixSource: String? = nil, samplingFrequencyHertz: Double? = nil) {
        self.name = name
        self.pairing = pairing
        self.scale = scale
        self.offset = offset
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        self.samplingFrequencyHertz = samplingFrequencyHertz
    }

    /// Header keys of the gyro (format 2).
    public enum Key {
        public static let name = "gyro-name"
        public static let pairing = "gyro-pairing"
        public static let scale = "gyro-scale"
        public static let offset = "gyro-offset"
        public static let mountMatrix = "gyro-mount-matrix"
        public static let mountMatrixSource = "gyro-mount-matrix-source"
        public static let samplingFrequency = "gyro-sampling-frequency-hz"
        static let all: Set<String> = [name, pairing, scale, offset, mountMatrix, mountMatrixSource,
                                       samplingFrequency]
    }

    /// The header lines' (key, value) pairs in a stable order.
    var pairs: [(String, String)] {
        var out: [(String, String)] = []
        if let name { out.append((Key.name, name)) }
        if let pairing { out.append((Key.pairing, pairing)) }
        if let scale { out.append((Key.scale, TraceHeader.text(scale))) }
        if let offset { out.append((Key.offset, TraceHeader.text(offset))) }
        if let mountMatrix { out.append((Key.mountMatrix, mountMatrix.iioText)) }
        if let mountMatrixSource { out.append((Key.mountMatrixSource, mountMatrixSource)) }
        if let samplingFrequencyHertz {
            out.append((Key.samplingFrequency, TraceNumberText.text(samplingFrequencyHertz)))
        }
        return out
    }
}
