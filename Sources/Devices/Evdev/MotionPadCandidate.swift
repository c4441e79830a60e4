/// An input device udev lists as a motion sensor, known without opening it:
/// what selection needs, so `run` opens only the pad it reads.
public struct MotionPadCandidate: Sendable, Equatable {
    /// "/dev/input/eventN".
    public var node: String
    /// The parent input device's sysfs `name` (EVIOCGNAME's answer), if readable.
    public var name: String?
    /// udev's ACCEL_MOUNT_MATRIX (a hwdb quirk), if set.
    public var udevMountMatrix: String?

    public init(node: String, name: String?, udevMountMatrix: String?) {
        self.node = node
        self.name = name
        self.udevMountMatrix = udevMountMatrix
    }

    /// "/dev/input/event5 (… Motion Sensors)".
    public var displayName: String {
        name.map { "\(node) (\($0))" } ?? node
    }
}
