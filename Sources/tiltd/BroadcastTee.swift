import Knob

/// Hands every state to several sinks in order (stdout and the socket, say).
final class BroadcastTee: StateSink {
    private let sinks: [any StateSink]

    init(_ sinks: [any StateSink]) {
        self.sinks = sinks
    }

    func emit(_ state: KnobState) {
        for sink in sinks { sink.emit(state) }
    }

    func flush() {
        for sink in sinks { sink.flush() }
    }
}
