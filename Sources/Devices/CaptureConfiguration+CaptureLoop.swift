extension CaptureConfiguration {
    /// A capture of the configured source, not started yet.
    ///
    /// - Parameter demand: what the consumers need from the capture's pace
    ///   (a DSU subscriber, the device at rest).
    public func makeCapture(demand: CaptureDemand = CaptureDemand()) -> CaptureLoop {
        CaptureLoop(source == .iio ? IIOCaptureDevice(configuration: self, demand: demand)
                        : PadCaptureDevice(configuration: self))
    }
}
