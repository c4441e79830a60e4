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
    /// The limit of all connections together.
    let shared: WebInputSharedLimit
    /// This connection, as the controls know it.
    let viewer = Self.nextViewer.add(1, ordering: .relaxed).newValue
    private static let nextViewer = Atomic<UInt64>(0)
    private var limit: WebInputRateLimit
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init(controls: WebInputControls, messagesPerSecond: Double, burst: Int, shared: WebInputSharedLimit) {
        self.controls = controls
        self.shared = shared
        limit = WebInputRateLimit(perSecond: messagesPerSecond, burst: burst)
        start = clock.now
    }

    /// Handles one message from the browser; refusals count against the
    /// connection's limit too, so a flood of bad messages is closed as fast
    /// as good ones. A message a control would act on also takes a token
    /// of the limit all connections share, and is refused when none is left.
    mutating func handle(text: String?) async -> Outcome {
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        guard limit.take(atSeconds: seconds) else {
            return .overLimit("more than \(Int(limit.burst)) input messages at once or \(Self.number(limit.perSecond)) a second")
        }
        guard let text else { return .refused(.binary) }
        do throws(WebInputRefusal) {
            let message = try WebInputMessage.parse(text)
            try controls.check(message)
            guard shared.take() else { throw WebInputRefusal.busy(perSecond: shared.perSecond) }
            try await controls.apply(message, from: viewer)
            return .applied
        } catch {
            return .refused(error)
        }
    }

    /// The refusal as the JSON text message sent back.
    static func errorMessage(_ refusal: WebInputRefusal) -> String {
        #"{"error":"\#(WebResponse.jsonEscaped(refusal.description))"}"#
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
