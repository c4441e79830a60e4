import Motion
/// An attribute of a device that could not be used, with the device named.
public struct DeviceAttributeError: Error, Sendable, CustomStringConvertible {
    /// How messages name the device, e.g. "iio:device0 (accel_3d)".
    public var device: String
    /// The attribute or property, e.g. "in_accel_mount_matrix".
    public var attribute: String
    /// What went wrong with its value.
    public var problem: String

    public init(device: String, attribute: String, problem: String) {
        self.device = device
        self.attribute = attribute
        self.problem = problem
    }

    public var description: String { "\(device) \(attribute): \(problem)" }
}
