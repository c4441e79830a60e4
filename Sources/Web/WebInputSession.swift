import Synchronization

/// The input side of one `/ws` connection: each text message is rate
/// limited, parsed and handed to its control.
///
/// The connection already passed `WebSocketGate` (allowed Host and Origin:
/// a page from another site, or a DNS-rebound name, never gets here), so
/// what is checked per message is whether input is on for the control and
/// how fast this connection sends.
struct WebInputSession: Sendable {
    /// What became of one message.
    enum Outcome: Sendable, Equatable {
        /// The control acted on it.
        case applied
        /// Tell the page why not (`{"error":"…"}`) and go on.
        case refused(WebInputRefusal)
        /// The connection sends faster than its limit: close it (1008).
        case overLimit(String)
    }

    let controls: WebInputControls
    /// This connection, as the controls know it.
    let viewer = Self.nextViewer.add(1, ordering: .relaxed).newValue
    private static let nextViewer = Atomic<UInt64>(0)
    private var limit: WebInputRateLimit
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init(controls: WebInputControls, messagesPerSecond: Double, burst: Int) {
        self.controls = controls
        limit = WebInputRateLimit(perSecond: messagesPerSecond, burst: burst)
        start = clock.now
    }

    /// Handles one message from the browser; refusals count against the
    /// limit too, so a flood of bad messages is closed as fast as good ones.
    mutating func handle(text: String?) async -> Outcome {
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        guard limit.take(atSeconds: seconds) else {
            return .overLimit("more than \(Int(limit.burst)) input messages at once or \(Self.number(limit.perSecond)) a second")
        }
        guard let text else { return .refused(.binary) }
        do {
            try await controls.apply(try WebInputMessage.parse(text), from: viewer)
            return .applied
        } catch {
            return .refused(error)
        }
    }

    /// The refusal as the JSON text message sent back.
    static func errorMessage(_ refusal: WebInputRefusal) -> String {
        #"{"error":"\#(WebResponse.jsonEscaped(refusal.description))"}"#
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
