import Motion
import Wording

/// Opening a gyroscope that sits on its own device (sibling or hub).
extension CaptureSession {
    /// Opens a separate gyro's own buffer on the accelerometer's clock,
    /// holding `scansPerRead` scans per read; nil, with a notice saying why,
    /// to poll it instead.
    static func openGyroBuffer(_ gyro: GyroDiscovery.Found, context: IIOContext, clock: String?,
                               scansPerRead: Int = 1, notice: (Diagnostic) -> Void) -> GyroBufferedReader? {
        guard gyro.info.bufferCapable, let clock else { return nil }
        do {
            let reader = try GyroBufferedReader(found: gyro, context: context, clock: clock, scansPerRead: scansPerRead)
            notice(.notice("capturing the gyroscope \(gyro.info.displayName) through its own buffer, "
                + "merged by device timestamp"))
            return reader
        } catch {
            notice(.notice("buffered capture of the gyroscope \(gyro.info.displayName) unavailable (\(error)); "
                + "reading it after each accelerometer sample instead"))
            return nil
        }
    }

    /// Sets a separate gyro's `sampling_frequency` to the accelerometer's rate
    /// (best effort: a polled gyro delivers its latest value either way) and
    /// returns the gyro's rate.
    static func matchGyroRate(_ rate: Double, gyro: GyroDiscovery.Found, iio: any IIOBackend,
                              notice: (Diagnostic) -> Void) -> Double? {
        guard let current = gyro.info.samplingFrequencyHertz, current < rate else {
            return gyro.info.samplingFrequencyHertz
        }
        let text = CaptureRate.attributeText(rate)
        if let errno = iio.writeDeviceAttribute(gyro.device, "sampling_frequency", text) {
            notice(.notice("cannot set sampling_frequency of the gyroscope \(gyro.info.displayName) to \(text) Hz: "
                + "\(errno): \(IIOError.advice(for: errno)); it stays at \(CaptureRate.attributeText(current)) Hz"))
            return current
        }
        return rate
    }
}
