/// The controls of `tiltd serve`'s page that accept input, by name: what a
/// page may change on this machine. Empty (the default) means the page is
/// display-only and every input message is refused.
///
/// Each control is enabled by a flag of its own (`Setting.controlVolume`
/// registers `volume`), so a user opts in to each thing a browser may change.
public struct WebInputControls: Sendable {
    /// Acts on a value in the control's range; throws to tell the page it failed.
    public typealias Handler = @Sendable (Double) async throws -> Void
    /// One page's connection (`/ws`), numbered from 1 as they open.
    public typealias Viewer = UInt64
    /// A handler told which viewer sent the value (the recording ring: only
    /// the viewer that pressed it may release it).
    public typealias ViewerHandler = @Sendable (Double, Viewer) async throws -> Void

    struct Control: Sendable {
        var range: ClosedRange<Double>
        var handler: ViewerHandler
    }

    private(set) var controls: [String: Control] = [:]
    private var leaveHandlers: [@Sendable (Viewer) -> Void] = []

    /// No control takes input.
    public init() {}

    /// Lets pages set `name` to values in `range` through `handler`.
    public mutating func enable(_ name: String, range: ClosedRange<Double>, _ handler: @escaping Handler) {
        enable(name, range: range, perViewer: { value, _ in try await handler(value) })
    }

    /// Lets pages set `name` through a handler that is told which viewer sent each value.
    public mutating func enable(_ name: String, range: ClosedRange<Double>, perViewer handler: @escaping ViewerHandler) {
        precondition(!name.isEmpty && name.utf8.count <= WebInputMessage.maximumControlNameBytes,
                     "a control's name is 1 to \(WebInputMessage.maximumControlNameBytes) bytes")
        controls[name] = Control(range: range, handler: handler)
    }

    /// Calls `handler` when a viewer's connection ends (a hold it left pressed must end).
    public mutating func onViewerLeft(_ handler: @escaping @Sendable (Viewer) -> Void) {
        leaveHandlers.append(handler)
    }

    /// A viewer's connection ended.
    func viewerLeft(_ viewer: Viewer) {
        for handler in leaveHandlers { handler(viewer) }
    }

    /// Names of the controls that take input, sorted.
    public var enabledNames: [String] { controls.keys.sorted() }

    /// Whether any control takes input.
    public var isEmpty: Bool { controls.isEmpty }

    /// The control `message` is for, when it takes that value.
    ///
    /// - Throws: `WebInputRefusal` when the control takes no input or the
    ///   value is out of its range.
    @discardableResult
    func check(_ message: WebInputMessage) throws(WebInputRefusal) -> Control {
        guard let control = controls[message.control] else {
            throw .disabled(control: message.control, known: enabledNames)
        }
        guard control.range.contains(message.value) else {
            throw .outOfRange(control: message.control, value: message.value, range: control.range)
        }
        return control
    }

    /// Acts on one parsed message.
    ///
    /// - Throws: `WebInputRefusal` when the control takes no input, the
    ///   value is out of its range, or its handler failed.
    func apply(_ message: WebInputMessage, from viewer: Viewer = 0) async throws(WebInputRefusal) {
        let control = try check(message)
        do {
            try await control.handler(message.value, viewer)
        } catch {
            throw .failed(control: message.control, reason: String(describing: error))
        }
    }
}
