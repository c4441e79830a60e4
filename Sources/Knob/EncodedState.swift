/// A state with its JSON Lines record (`KnobState.appendJSONLine`), encoded
/// once by the sample path and shared by every consumer that writes it:
/// standard output, the state socket, the web page's streams and `/state`,
/// and `tiltd monitor`. Each adds only its own framing (`withFields`, an SSE
/// `data: ` prefix, a WebSocket text frame).
///
/// The bytes are a copy-on-write array: handing the value to several
/// consumers copies no bytes.
public struct EncodedState: Sendable, Equatable {
    public let state: KnobState
    private let encoded: [UInt8]?

    /// `state` with its record encoded now.
    public init(_ state: KnobState) {
        self.state = state
        var line: [UInt8] = []
        line.reserveCapacity(192)
        state.appendJSONLine(to: &line)
        encoded = line
    }

    /// `state` not encoded yet, for a sample path whose consumers use no
    /// bytes (the D-Bus service, DSU): `line` encodes it if asked anyway.
    public init(unencoded state: KnobState) {
        self.state = state
        encoded = nil
    }

    /// The record, newline included.
    public var line: [UInt8] {
        if let encoded { return encoded }
        var line: [UInt8] = []
        state.appendJSONLine(to: &line)
        return line
    }

    /// This value with its record encoded (itself when it already is).
    public var encodedNow: EncodedState { encoded == nil ? EncodedState(state) : self }

    /// The record without its newline, with `fields` (`,"key":value…`)
    /// added after the state's own: `{…the state…,"key":value}`.
    public func record(withFields fields: [UInt8]) -> [UInt8] {
        var record = line
        // The record ends in "}\n": the fields go before the brace.
        record.removeLast(2)
        record.append(contentsOf: fields)
        record.append(UInt8(ascii: "}"))
        return record
    }

    public static func == (a: EncodedState, b: EncodedState) -> Bool { a.state == b.state }
}
