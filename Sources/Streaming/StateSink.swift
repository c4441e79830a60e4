import Knob
import Sensors

/// Where knob states go: stdout, the Unix socket, the web page, a renderer.
public protocol StateSink: AnyObject {
    /// Takes one state that passed the gate.
    func emit(_ state: KnobState)
    /// Pushes out anything buffered (called at the end and when idle).
    func flush()
    /// Hears a live device's status when it opens and when it changes (a
    /// gyroscope lost), and whether a gyroscope is fused into the states
    /// that follow.
    func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool)
}

extension StateSink {
    public func flush() {}
    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {}
}
