extension CaptureConfiguration {
    /// A capture of the configured source, not started yet.
    public func makeCapture() -> any MotionCapture {
        switch source {
        case .iio: return CaptureLoop(IIOCaptureDevice(configuration: self), retryInitialSeconds: retryInitialSeconds,
                                      retryMaximumSeconds: retryMaximumSeconds)
        case .evdev: return CaptureLoop(PadCaptureDevice(configuration: self), retryInitialSeconds: retryInitialSeconds,
                                        retryMaximumSeconds: retryMaximumSeconds)
        }
    }
}
