/// What a trace says about the device it was captured from.
///
/// Every field but `version` is optional: a converted recording knows little
/// about its device, a live capture knows everything.
public struct TraceHeader: Sendable, Equatable {
    /// The trace format version: 1 without a gyroscope, 2 with one (see
    /// `TraceFormat.currentVersion`).
    public var version: Int
    /// The IIO device name (`name` attribute), e.g. "bmi260".
    public var name: String?
    /// The IIO label or ACCEL_LOCATION, e.g. "accel-display".
    public var label: String?
    /// The libiio context URI, e.g. "local:" or "ip:192.168.1.5".
    public var uri: String?
    /// Per-axis scale, m/s² per raw unit (IIO: value = (raw + offset) × scale).
    public var scale: SIMD3<Double>?
    /// Per-axis offset in raw units.
    public var offset: SIMD3<Double>?
    /// The mount matrix applied to the samples' m/s² values.
    public var mountMatrix: MountMatrix?
    /// Where the matrix came from, e.g. "udev ACCEL_MOUNT_MATRIX", "sysfs in_accel_mount_matrix", "identity".
    public var mountMatrixSource: String?
    /// The sampling rate in force, Hz.
    public var samplingFrequencyHertz: Double?
    /// The tiltd version that wrote the trace.
    public var tiltdVersion: String?
    /// The gyroscope whose rates the samples carry (format 2), nil without one.
    public var gyro: TraceGyroHeader?
    /// Any other keys (lowercase letters, digits, '-', '_', '.'), e.g.
    /// "source" or "axis-mapping" for converted recordings. Unknown keys of
    /// a trace read back land here.
    public var extra: [String: String]

    /// - Parameter version: nil picks the oldest version that holds the
    ///   data: 1 without `gyro`, 2 with it.
    public init(version: Int? = nil, name: String? = nil, label: String? = nil,
                uri: String? = nil, scale: SIMD3<Double>? = nil, offset: SIMD3<Double>? = nil,
                mountMatrix: MountMatrix? = nil, mountMatrixSource: String? = nil,
                samplingFrequencyHertz: Double? = nil, tiltdVersion: String? = nil,
                extra: [String: String] = [:], gyro: TraceGyroHeader? = nil) {
        self.version = version ?? (gyro == nil ? 1 : 2)
        self.gyro = gyro
        self.name = name
        self.label = label
        self.uri = uri
        self.scale = scale
        self.offset = offset
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        self.samplingFrequencyHertz = samplingFrequencyHertz
        self.tiltdVersion = tiltdVersion
        self.extra = extra
    }

    /// Whether `key` may be used as a header key.
    public static func isValidKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, TraceHeader.isKeyByte(first), first != UInt8(ascii: "-") else {
            return false
        }
        return key.utf8.allSatisfy(TraceHeader.isKeyByte)
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    /// The header lines (after the magic line), in a stable order.
    package var lines: [String] {
        var out: [(String, String)] = []
        if let name { out.append((TraceFormat.Key.name, name)) }
        if let label { out.append((TraceFormat.Key.label, label)) }
        if let uri { out.append((TraceFormat.Key.uri, uri)) }
        if let scale { out.append((TraceFormat.Key.scale, TraceHeader.text(scale))) }
        if let offset { out.append((TraceFormat.Key.offset, TraceHeader.text(offset))) }
        if let mountMatrix { out.append((TraceFormat.Key.mountMatrix, mountMatrix.iioText)) }
        if let mountMatrixSource { out.append((TraceFormat.Key.mountMatrixSource, mountMatrixSource)) }
        if let samplingFrequencyHertz {
            out.append((TraceFormat.Key.samplingFrequency, TraceNumberText.text(samplingFrequencyHertz)))
        }
        if let tiltdVersion { out.append((TraceFormat.Key.tiltdVersion, tiltdVersion)) }
        if let gyro { out.append(contentsOf: gyro.pairs) }
        for key in extra.keys.sorted() { out.append((key, extra[key]!)) }
        return out.map { "# \($0.0): \(TraceHeader.oneLine($0.1))" }
    }

    package static func text(_ v: SIMD3<Double>) -> String {
        "\(TraceNumberText.text(v.x)) \(TraceNumberText.text(v.y)) \(TraceNumberText.text(v.z))"
    }

    /// A value kept on one line: line breaks become spaces.
    package static func oneLine(_ value: String) -> String {
        String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
