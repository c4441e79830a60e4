/// The controls of `tiltd serve`'s page that accept input, by name: what a
/// page may change on this machine. Empty (the default) means the page is
/// display-only and every input message is refused.
///
/// Each control is enabled by a flag of its own (`--control-volume`
/// registers `volume`), so a user opts in to each thing a browser may change.
public struct WebInputControls: Sendable {
    /// Acts on a value in the control's range; throws to tell the page it failed.
    public typealias Handler = @Sendable (Double) async throws -> Void

    struct Control: Sendable {
        var range: ClosedRange<Double>
        var handler: Handler
    }

    private(set) var controls: [String: Control] = [:]

    /// No control takes input.
    public init() {}

    /// Lets pages set `name` to values in `range` through `handler`.
    public mutating func enable(_ name: String, range: ClosedRange<Double>, _ handler: @escaping Handler) {
        precondition(!name.isEmpty && name.utf8.count <= WebInputMessage.maximumControlNameBytes,
                     "a control's name is 1 to \(WebInputMessage.maximumControlNameBytes) bytes")
        controls[name] = Control(range: range, handler: handler)
    }

    /// Names of the controls that take input, sorted.
    public var enabledNames: [String] { controls.keys.sorted() }

    /// Whether any control takes input.
    public var isEmpty: Bool { controls.isEmpty }

    /// Acts on one parsed message.
    ///
    /// - Throws: `WebInputRefusal` when the control takes no input, the
    ///   value is out of its range, or its handler failed.
    func apply(_ message: WebInputMessage) async throws(WebInputRefusal) {
        guard let control = controls[message.control] else {
            throw .disabled(control: message.control, known: enabledNames)
        }
        guard control.range.contains(message.value) else {
            throw .outOfRange(control: message.control, value: message.value, range: control.range)
        }
        do {
            try await control.handler(message.value)
        } catch {
            throw .failed(control: message.control, reason: String(describing: error))
        }
    }
}
