import Devices
import Knob

/// A consumer of the hub (`StateHub`): stdout, the Unix socket, the D-Bus
/// service, the web page, a collector for the renderer. Called on the
/// producer's thread; it must not block it.
public protocol StateSink: AnyObject {
    /// True when the consumer needs every sample, not only gated states
    /// (the producer then calls `take`, which it skips otherwise).
    var wantsEverySample: Bool { get }
    /// Takes every sample, gated or not (by default: `emit` its state when
    /// it has one; a consumer that needs every sample overrides this).
    func take(_ sample: PublishedSample)
    /// Takes one state that passed the gate.
    func emit(_ state: KnobState)
    /// Pushes out anything buffered (called at the end and when idle).
    func flush()
    /// Hears a live device's status when it opens and when it changes (a
    /// gyroscope lost), and whether a gyroscope is fused into the states
    /// that follow.
    func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool)
    /// The states emitted since the last call came from one wake-up of a
    /// paced capture: a consumer that holds them (the socket, to send them
    /// in one write) sends them now. A consumer that has heard it once may
    /// hold states until the next call or `flush`.
    func endBatch()
}

extension StateSink {
    public var wantsEverySample: Bool { false }
    public func take(_ sample: PublishedSample) {
        if let state = sample.state { emit(state) }
    }
    public func flush() {}
    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {}
    public func endBatch() {}
}
