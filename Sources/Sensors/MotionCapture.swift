/// A capture that runs on its own thread and reports `CaptureEvent`s: an IIO
/// accelerometer or an evdev motion sensor (`CaptureLoop`). The run loop in
/// `tiltd` drives either through this.
public protocol MotionCapture: AnyObject, Sendable {
    /// Opens the device (failing synchronously when it cannot) and starts the thread.
    ///
    /// - Parameter handler: called on the capture thread for every event;
    ///   return false to stop.
    @discardableResult
    func start(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) throws -> CaptureStatus
    /// Asks the capture to stop; returns at once.
    func stop()
    /// Suspends until the capture thread has finished (at once when it never started).
    func finished() async
}
