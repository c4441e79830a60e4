import Knob
import Sensors

/// Hands every state to several sinks in order (stdout and the socket, say).
public final class BroadcastTee: StateSink {
    private let sinks: [any StateSink]

    public init(_ sinks: [any StateSink]) {
        self.sinks = sinks
    }

    public func emit(_ state: KnobState) {
        for sink in sinks { sink.emit(state) }
    }

    public func flush() {
        for sink in sinks { sink.flush() }
    }

    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        for sink in sinks { sink.captureStatus(status, fusingGyroscope: fusingGyroscope) }
    }
}
