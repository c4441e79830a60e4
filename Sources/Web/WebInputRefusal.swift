import Motion
import Wording
/// Why `tiltd serve` did not act on an input message; the page is told in
/// one line (`{"error":"…"}` on the same WebSocket).
enum WebInputRefusal: Error, Equatable, CustomStringConvertible {
    /// The message is not `{"control":"NAME","value":NUMBER}`.
    case malformed(String)
    /// Input is off for this control (or for every control): the server was
    /// not started with the flag that allows it.
    case disabled(control: String, known: [String])
    /// The value is outside what the control accepts.
    case outOfRange(control: String, value: Double, range: ClosedRange<Double>)
    /// The control tried and failed (e.g. the audio server refused).
    case failed(control: String, reason: String)
    /// Binary frames carry no input.
    case binary
    /// All pages together sent more input than the server acts on (`WebInputRateLimit`).
    case busy(perSecond: Double)

    var description: String {
        switch self {
        case let .malformed(what):
            return "input refused: \(what); send {\"control\":\"NAME\",\"value\":NUMBER}"
        case let .disabled(control, known) where known.isEmpty:
            return "input refused: \"\(control)\" is display-only here, as is every control "
                + "(tiltd serve takes input only when started with the flag for it, e.g. \(Setting.controlVolume))"
        case let .disabled(control, known):
            return "input refused: \"\(control)\" takes no input here; these do: \(known.joined(separator: ", "))"
        case let .outOfRange(control, value, range):
            return "input refused: \(control) \(value) is outside \(range.lowerBound)…\(range.upperBound)"
        case let .failed(control, reason):
            return "input for \(control) failed: \(reason)"
        case .binary:
            return "input refused: binary messages carry no input; send JSON text"
        case let .busy(perSecond):
            return "input refused: the pages of this server sent more than \(WebInputSession.number(perSecond)) input "
                + "messages a second together; try again in a moment"
        }
    }
}
