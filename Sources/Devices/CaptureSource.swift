/// Which kind of device a capture reads.
public enum CaptureSource: String, Sendable, CaseIterable {
    /// An IIO accelerometer through libiio (laptops, tablets, boards).
    case iio
    /// An evdev motion sensor through libevdev (game pads, handhelds).
    case evdev
}
