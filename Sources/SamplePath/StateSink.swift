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
    /// True when the consumer writes states' JSON records (stdout, the
    /// socket, the web page): the hub then encodes each state once, before
    /// handing it out (`EncodedState`), and every consumer shares those bytes.
    var usesRecords: Bool { get }
    /// Takes one state that passed the gate.
    func emit(_ state: EncodedState)
    /// Pushes out anything buffered (called at the end and when idle).
    func flush()
    /// Hears a live device's status when it opens and when it changes (a
    /// gyroscope lost), and whether a gyroscope is fused into the states
    /// that follow.
    func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool)
    /// Hears that the device stopped delivering samples: the newest state
    /// is no longer current. Each consumer says so in its own terms (the
    /// socket's new clients wait for the next state, D-Bus clears its
    /// state, DSU's slot shows no controller while the device is lost).
    func deviceStopped(_ stop: DeviceStop)
    /// The states emitted since the last call came from one wake-up of a
    /// paced capture: a consumer that holds them (the socket, to send them
    /// in one write) sends them now. A consumer that has heard it once may
    /// hold states until the next call or `flush`.
    func endBatch()
}

extension StateSink {
    public var wantsEverySample: Bool { false }
    public var usesRecords: Bool { false }
    public func take(_ sample: PublishedSample) {
        if let state = sample.encoded { emit(state) }
    }
    /// Takes `state`, encoding it for this consumer alone (the hub encodes
    /// once for all: `StateHub.publish`).
    public func emit(_ state: KnobState) { emit(EncodedState(unencoded: state)) }
    public func flush() {}
    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {}
    public func deviceStopped(_ stop: DeviceStop) {}
    public func endBatch() {}
}
