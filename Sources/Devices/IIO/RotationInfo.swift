import Motion
/// A sensor hub's fused rotation (`dev_rotation`) beside the accelerometer.
public struct RotationInfo: Sendable, Equatable {
    /// libiio's id, e.g. "iio:device2".
    public var id: String
    public var name: String?
    /// Per-component scale (from the HID unit exponent).
    public var scale: Double
    /// The file the scale came from, or "default 1".
    public var scaleSource: String
    /// `sampling_frequency`, nil without one.
    public var samplingFrequencyHertz: Double?
    /// The component convention checked against the accelerometer at start
    /// (nil until a capture has checked it).
    public var convention: RotationQuaternion.Convention?

    public init(id: String, name: String?, scale: Double, scaleSource: String, samplingFrequencyHertz: Double?,
                convention: RotationQuaternion.Convention? = nil) {
        self.id = id
        self.name = name
        self.scale = scale
        self.scaleSource = scaleSource
        self.samplingFrequencyHertz = samplingFrequencyHertz
        self.convention = convention
    }

    /// "iio:device2 (dev_rotation)".
    public var displayName: String {
        if let name { return "\(id) (\(name))" }
        return id
    }
}
