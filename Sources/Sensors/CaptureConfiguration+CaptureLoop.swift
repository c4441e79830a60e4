extension CaptureConfiguration {
    /// A capture of the configured source, not started yet.
    public func makeCapture() -> CaptureLoop {
        CaptureLoop(source == .iio ? IIOCaptureDevice(configuration: self) : PadCaptureDevice(configuration: self))
    }
}
