import Motion
/// What the angles come from (`--source`).
public enum CaptureSource: String, Sendable, CaseIterable {
    /// The accelerometer, fused with its gyroscope when it has one.
    case accelerometer
    /// The HID sensor hub's own fused quaternion (`dev_rotation`), its
    /// component order checked against the accelerometer at start; falls
    /// back to `accelerometer` (saying so) when there is none or no order agrees.
    case rotation
}
