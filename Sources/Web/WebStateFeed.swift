import Devices
import Knob
import SamplePath

/// What the page's readers are sent, in one `NewestValue` mailbox: the
/// newest knob state (`/state` reads it) and, beside it, the newest JSON
/// value of each named channel (`levels`, `volume`, `ring`…), which every
/// event stream and WebSocket also waits on (`Reader`).
///
/// Readers never queue: each one waits for "something newer than what I
/// sent" and then takes the newest state and every channel that changed, so
/// a slow browser coalesces and costs no memory. Channel names come from
/// the server's own code, never from a client, so their number is fixed.
public final class WebStateFeed: StateSink, Sendable {
    /// A state with its position in the feed (1 for the first state).
    public struct Entry: Sendable {
        public var sequence: UInt64
        public var state: KnobState
        /// The state's record with the page's extra fields in force when the
        /// entry was made (`WebStateFields`), without a newline: built once
        /// per change and shared by `/state`, every event stream and every
        /// WebSocket, each adding its own framing.
        public var record: [UInt8]
        /// The extra fields alone, as `,"key":value…`.
        public var fields: [UInt8]
    }

    /// One channel's newest value.
    public struct Message: Sendable, Equatable {
        public var channel: String
        /// A JSON value (object, number…), without a trailing newline.
        public var json: String
        /// Position among every message posted (1 for the first).
        public var sequence: UInt64
    }

    private struct Newest: Sendable {
        var state: EncodedState?
        /// States so far (and repeats of one with new fields): the entries' sequence.
        var states: UInt64 = 0
        var fields = WebStateFields()
        var channels: [String: Message] = [:]
        var messages: UInt64 = 0
        var entry: Entry?

        /// Replaces `channel`'s value with `json`.
        mutating func post(_ channel: String, json: String) {
            messages += 1
            channels[channel] = Message(channel: channel, json: json, sequence: messages)
        }

        /// A new entry for the current state and fields.
        mutating func renew() {
            states += 1
            entry = state.map {
                Entry(sequence: states, state: $0.state, record: $0.record(withFields: fields.json), fields: fields.json)
            }
        }
    }

    private let mailbox = NewestValue(Newest())

    public init() {}

    /// The newest state, nil before the first.
    public var current: Entry? { mailbox.current.value.entry }

    /// The page writes every state's record.
    public var usesRecords: Bool { true }

    public func emit(_ state: EncodedState) {
        mailbox.update { $0.state = state; $0.renew(); return true }
    }

    /// The channel that says whether the device is open: `{"open":true,
    /// "device":NAME,"gyroscope":BOOL}` when it opens, `{"open":false,
    /// "stopped":"released"}` when nobody wants states any more, and
    /// `{"open":false,"stopped":"lost","message":…}` when it failed or
    /// vanished. A replay has no device and never posts it.
    public static let deviceChannel = "device"

    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        post(Self.deviceChannel, json: #"{"open":true,"device":"\#(status.info.displayName.jsonEscaped)","#
            + #""gyroscope":\#(fusingGyroscope)}"#)
    }

    /// The device stopped: the state it left goes (`/state` and a page
    /// opened now get none, not a stale one) and the device channel says why.
    public func deviceStopped(_ stop: DeviceStop) {
        let json = switch stop {
        case .released: #"{"open":false,"stopped":"released"}"#
        case .lost(let message): #"{"open":false,"stopped":"lost","message":"\#(message.jsonEscaped)"}"#
        }
        mailbox.update { newest in
            newest.state = nil
            newest.entry = nil
            newest.post(Self.deviceChannel, json: json)
            return true
        }
    }

    /// Sets the extra field `key` to the JSON `value` (nil removes it) and,
    /// once a state exists, sends the newest state again with it, so every
    /// stream shows the change at once.
    public func setField(_ key: String, json value: String?) {
        mailbox.update { newest in
            newest.fields.set(key, json: value)
            guard newest.state != nil else { return false }
            newest.renew()
            return true
        }
    }

    /// Replaces `channel`'s value with `json` and wakes the streams.
    public func post(_ channel: String, json: String) {
        mailbox.update { $0.post(channel, json: json); return true }
    }

    /// Wakes every waiting reader without anything new, so that idle event
    /// streams can send a keep-alive (and find out whether the browser left).
    public func wakeAll() { mailbox.wakeAll() }

    /// A reader that has sent nothing yet.
    public func reader() -> Reader { Reader(feed: self) }

    /// One stream's place in the feed.
    public struct Reader: Sendable {
        let feed: WebStateFeed
        private var seen: UInt64 = 0, state: UInt64 = 0, message: UInt64 = 0
        /// `wakeAll()`s seen: one while the caller writes is not missed.
        private var wakes: UInt64

        init(feed: WebStateFeed) {
            self.feed = feed
            wakes = feed.mailbox.wakes
        }

        /// Waits for anything newer than what this reader took.
        ///
        /// - Returns: the channels that changed (oldest first) and the
        ///   state, when it changed; nil when woken by `wakeAll()` with
        ///   nothing new or when the task was cancelled.
        public mutating func next() async -> (messages: [Message], state: Entry?)? {
            defer { wakes = feed.mailbox.wakes }
            guard let next = await feed.mailbox.next(after: seen, wokenSince: wakes) else { return nil }
            let newest = next.value
            seen = next.sequence
            let messages = newest.channels.values.filter { $0.sequence > message }.sorted { $0.sequence < $1.sequence }
            let entry = newest.states > state ? newest.entry : nil
            (state, message) = (newest.states, newest.messages)
            return (messages, entry)
        }
    }
}
