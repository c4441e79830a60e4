import Motion

/// What tiltd knows about one evdev motion sensor before reading it: for
/// `tiltd list`, selection and converting its values.
///
/// Values become tiltd's frame by `mountMatrix · (raw / resolution × unit)`:
/// unit = standard gravity for ABS_X/Y/Z (resolution in units per g), and
/// π/180 rad for ABS_RX/RY/RZ (resolution in units per °/s), SPEC §11.
public struct MotionPadInfo: Sendable, Equatable {
    /// The event node, e.g. "/dev/input/event5".
    public var node: String
    /// The device's name, e.g. "Sony Interactive Entertainment Wireless Controller Motion Sensors".
    public var name: String
    public var vendor: Int
    public var product: Int
    /// input_id.bustype: 3 USB, 5 Bluetooth.
    public var bus: Int
    public var family: PadFamily
    /// ABS_X, ABS_Y, ABS_Z.
    public var accelerometerAxes: [EvdevAxis]
    /// ABS_RX, ABS_RY, ABS_RZ, or empty without a gyroscope.
    public var gyroscopeAxes: [EvdevAxis]
    /// True when the device sends MSC_TIMESTAMP (µs, 32-bit, wraps).
    public var hasTimestamp: Bool
    /// Pad frame → tiltd frame, applied as M·v.
    public var mountMatrix: MountMatrix
    /// Where the matrix came from: `.padFamily`, `.udev` (ACCEL_MOUNT_MATRIX) or `.commandLine`.
    public var mountMatrixSource: MountMatrixSource

    /// Standard gravity, m/s² per g (CODATA, as the IIO ABI's m/s² assume).
    public static let standardGravity = 9.80665

    public init(node: String, name: String, vendor: Int, product: Int, bus: Int,
                accelerometerAxes: [EvdevAxis], gyroscopeAxes: [EvdevAxis], hasTimestamp: Bool,
                mountMatrix: MountMatrix? = nil, mountMatrixSource: MountMatrixSource = .padFamily) {
        self.node = node
        self.name = name
        self.vendor = vendor
        self.product = product
        self.bus = bus
        self.family = PadFamily(vendor: vendor)
        self.accelerometerAxes = accelerometerAxes
        self.gyroscopeAxes = gyroscopeAxes
        self.hasTimestamp = hasTimestamp
        self.mountMatrix = mountMatrix ?? family.matrix
        self.mountMatrixSource = mountMatrix == nil ? .padFamily : mountMatrixSource
    }

    /// Where the matrix came from, for people: the family's frame, or the source's name.
    public var mountMatrixSourceText: String {
        mountMatrixSource == .padFamily ? family.frameDescription : mountMatrixSource.rawValue
    }

    /// "/dev/input/event5 (Steam Deck Motion Sensors)": how messages name the pad.
    public var displayName: String { "\(node) (\(name))" }

    /// "054c:09cc".
    public var usbID: String { Self.hex(vendor) + ":" + Self.hex(product) }

    /// m/s² per unit, x, y, z (before the matrix); a missing resolution counts as 1.
    public var accelerationScale: SIMD3<Double> {
        Self.scale(accelerometerAxes, unit: Self.standardGravity)
    }

    /// rad/s per unit, x, y, z (before the matrix).
    public var angularVelocityScale: SIMD3<Double> {
        Self.scale(gyroscopeAxes, unit: Double.pi / 180)
    }

    /// Raw ABS_X/Y/Z → m/s² in tiltd's frame.
    public func acceleration(raw: SIMD3<Double>) -> SIMD3<Double> {
        mountMatrix.apply(raw * accelerationScale)
    }

    /// Raw ABS_RX/RY/RZ → rad/s in tiltd's frame (det(M)·M·ω: a pseudovector).
    public func angularVelocity(raw: SIMD3<Double>) -> SIMD3<Double> {
        mountMatrix.applyToAngularVelocity(raw * angularVelocityScale)
    }

    private static func scale(_ axes: [EvdevAxis], unit: Double) -> SIMD3<Double> {
        guard axes.count == 3 else { return SIMD3(repeating: 0) }
        return SIMD3(axes.map { unit / Double(max($0.resolution, 1)) })
    }

    private static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
