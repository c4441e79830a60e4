import Knob

/// Where knob states go: stdout, the Unix socket, the web page, a renderer.
public protocol StateSink: AnyObject {
    /// Takes one state that passed the gate.
    func emit(_ state: KnobState)
    /// Pushes out anything buffered (called at the end and when idle).
    func flush()
}

extension StateSink {
    public func flush() {}
}
