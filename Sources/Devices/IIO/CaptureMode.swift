import Motion
/// How samples are taken from the device.
public enum CaptureMode: String, Sendable, CaseIterable {
    /// Buffered when the device allows it, else polled (saying why, once).
    case auto
    /// Buffered only: triggered scans with the device's own timestamps.
    case buffer
    /// Polled only: `in_accel_*_raw` read at the chosen rate.
    case poll
}
