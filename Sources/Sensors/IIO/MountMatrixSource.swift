import Motion
/// Where a device's mount matrix came from, in SPEC §4's priority order.
public enum MountMatrixSource: String, Sendable, CaseIterable {
    /// `Setting.mountMatrix` on the command line (overrides everything).
    case commandLine = "command line"
    /// The udev property `ACCEL_MOUNT_MATRIX` (hwdb quirks), checked first.
    case udev = "udev ACCEL_MOUNT_MATRIX"
    /// sysfs `mount_matrix`.
    case mountMatrix = "mount_matrix"
    /// sysfs `in_accel_mount_matrix`.
    case accelMountMatrix = "in_accel_mount_matrix"
    /// sysfs `in_mount_matrix`.
    case inMountMatrix = "in_mount_matrix"
    /// A game pad's driver frame (`PadFamily`, docs/devices.md).
    case padFamily = "pad family"
    /// Nothing found: identity.
    case identity = "identity (none found)"
}
