import Knob
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
    /// The limit of all connections together: a message over it is refused
    /// and the connection stays open (the sender may not be the one flooding).
    let shared: WebInputRateLimit
    /// This connection, as the controls know it.
    let viewer = Self.nextViewer.add(1, ordering: .relaxed).newValue
    private static let nextViewer = Atomic<UInt64>(0)
    private let limit: WebInputRateLimit

    init(controls: WebInputControls, messagesPerSecond: Double, burst: Int, shared: WebInputRateLimit) {
        self.controls = controls
        self.shared = shared
        limit = WebInputRateLimit(perSecond: messagesPerSecond, burst: burst)
    }

    /// Handles one message from the browser; refusals count against the
    /// connection's limit too, so a flood of bad messages is closed as fast
    /// as good ones. A message a control would act on also takes a token
    /// of the limit all connections share, and is refused when none is left.
    func handle(text: String?) async -> Outcome {
        guard limit.take() else {
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
        #"{"error":"\#(refusal.description.jsonEscaped)"}"#
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
