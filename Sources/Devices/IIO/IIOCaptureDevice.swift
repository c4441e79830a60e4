import Motion
/// The IIO accelerometer a `CaptureLoop` captures (with its gyroscope or
/// the hub's rotation), through `backend` (a fake in tests).
struct IIOCaptureDevice: CaptureDevice {
    let configuration: CaptureConfiguration
    var demand = CaptureDemand()
    var backend: any IIOBackend = LibIIO()
    var waiting: any CaptureWaiting = PollWaiting()
    var threadName: String { "tiltd capture" }
    var noun: String { "the device" }
    var faultRemedy: String { "retrying with backoff" }

    func open(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession {
        try CaptureSession(configuration: configuration, backend: backend, demand: demand, waiting: waiting,
                           notice: notice)
    }

    func resumedNotice(_ status: CaptureStatus) -> Diagnostic {
        .notice("\(status.info.displayName) is back: resuming (\(status.mode.rawValue), "
            + "\(CaptureRate.attributeText(status.rateHertz)) Hz)")
    }

    /// On the monotonic clock "now" places the gap; on another clock the
    /// only known point is just after the last sample.
    func faultTime(clock: String, lastSampleNanoseconds: Int64?) -> Int64 {
        clock == "monotonic" ? MonotonicClock.nanoseconds() : (lastSampleNanoseconds ?? 0) + 1
    }
}

extension CaptureSession: CaptureDeviceSession {
    var cancel: (@Sendable () -> Void)? { { [buffered] in buffered?.cancel() } }
}
