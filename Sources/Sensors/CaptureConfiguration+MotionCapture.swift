extension CaptureConfiguration {
    /// A capture of the configured source, not started yet.
    public func makeCapture() -> any MotionCapture {
        switch source {
        case .iio: return DeviceCapture(configuration: self)
        case .evdev: return PadCapture(configuration: self)
        }
    }
}
