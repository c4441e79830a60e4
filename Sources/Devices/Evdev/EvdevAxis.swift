/// One absolute axis of an evdev motion sensor, as `EVIOCGABS` describes it.
///
/// For `INPUT_PROP_ACCELEROMETER` devices the kernel's event-codes
/// documentation defines `resolution` as units per g on ABS_X/Y/Z and units
/// per degree per second on ABS_RX/RY/RZ (SPEC §11).
public struct EvdevAxis: Sendable, Equatable, Encodable {
    /// The ABS_* code (0 = ABS_X … 5 = ABS_RZ).
    public var code: UInt16
    public var minimum: Int
    public var maximum: Int
    public var fuzz: Int
    public var flat: Int
    /// Units per g (accelerometer) or per °/s (gyroscope); 0 when the driver gave none.
    public var resolution: Int

    public init(code: UInt16, minimum: Int, maximum: Int, fuzz: Int, flat: Int, resolution: Int) {
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// "ABS_X" … "ABS_RZ".
    public var name: String {
        let names = ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ"]
        return Int(code) < names.count ? names[Int(code)] : "ABS_\(code)"
    }

    enum CodingKeys: String, CodingKey { case name, minimum, maximum, fuzz, flat, resolution }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
        try container.encode(fuzz, forKey: .fuzz)
        try container.encode(flat, forKey: .flat)
        try container.encode(resolution, forKey: .resolution)
    }
}
