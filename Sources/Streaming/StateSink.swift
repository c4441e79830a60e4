import Knob
import Sensors

/// Where knob states go: stdout, the Unix socket, the web page, a renderer.
public protocol StateSink: AnyObject {
    /// Takes one state that passed the gate.
    func emit(_ state: KnobState)
    /// Pushes out anything buffered (called at the end and when idle).
    func flush()
    /// Hears that a live device was opened (`status`), and whether its
    /// gyroscope is fused into the states that follow.
    func deviceOpened(_ status: CaptureStatus, fusingGyroscope: Bool)
}

extension StateSink {
    public func flush() {}
    public func deviceOpened(_ status: CaptureStatus, fusingGyroscope: Bool) {}
}
