/// `Setting.source`: which kind of motion sensor `run`, `record` and `serve` read.
public enum CaptureSourceSetting: String, Sendable, CaseIterable {
    /// evdev when `Setting.device` names /dev/input/…; otherwise the IIO
    /// accelerometer, or an evdev motion sensor (game pad) when the local
    /// IIO context has no accelerometer that fits `Setting.device`.
    case auto
    case iio
    case evdev
    /// IIO, with the angles from an HID sensor hub's fused quaternion.
    case rotation

    /// The source a capture will use, deciding `auto` by looking at what exists now.
    public func resolve(device: String?, uri: String) -> CaptureSource {
        switch self {
        case .iio, .rotation: return .iio
        case .evdev: return .evdev
        case .auto: return .automatic(device: device, uri: uri)
        }
    }
}
