import Motion
/// What an IIO capture's angles come from (`Setting.source` `rotation` chooses the second).
public enum AttitudeSource: String, Sendable, CaseIterable {
    /// The accelerometer, fused with its gyroscope when it has one.
    case accelerometer
    /// The HID sensor hub's own fused quaternion (`dev_rotation`), its
    /// component order checked against the accelerometer at start; falls
    /// back to `accelerometer` (saying so) when there is none or no order agrees.
    case rotation
}
