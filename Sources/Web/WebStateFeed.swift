import Knob
import Streaming

/// The newest knob state for the web page's readers: `/state` reads it and
/// every event stream waits on it (a `NewestValue` mailbox).
///
/// Readers never queue states: each one waits for "something newer than what
/// I sent" and then takes the newest, so a slow browser coalesces to the
/// latest state and costs no memory. `emit` stores the state and resumes the
/// readers waiting (at most the stream limit of them).
public final class WebStateFeed: StateSink, Sendable {
    /// A state with its position in the feed (1 for the first state).
    public struct Entry: Sendable {
        public var sequence: UInt64
        public var state: KnobState
        /// The page's extra fields in force when the entry was made
        /// (`WebStateFields`), as `,"key":value…`.
        public var fields: [UInt8] = []
    }

    private struct Newest: Sendable {
        var state: KnobState?
        var fields = WebStateFields()
    }

    private let mailbox = NewestValue(Newest())

    public init() {}

    /// The newest state, nil before the first.
    public var current: Entry? { Self.entry(mailbox.current) }

    private static func entry(_ newest: NewestValue<Newest>.Entry?) -> Entry? {
        guard let newest, let state = newest.value.state else { return nil }
        return Entry(sequence: newest.sequence, state: state, fields: newest.value.fields.json)
    }

    public func emit(_ state: KnobState) {
        mailbox.update { $0.state = state; return true }
    }

    /// Sets the extra field `key` to the JSON `value` (nil removes it) and,
    /// once a state exists, sends the newest state again with it, so every
    /// stream shows the change at once.
    public func setField(_ key: String, json value: String?) {
        mailbox.update { newest in
            newest.fields.set(key, json: value)
            return newest.state != nil
        }
    }

    /// Wakes every waiting reader without a new state, so that idle event
    /// streams can send a keep-alive (and find out whether the browser left).
    public func wakeAll() { mailbox.wakeAll() }

    /// How many times `wakeAll()` has run: a reader that looks at something
    /// else on a wake (`WebChannelFeed`) reads this first and passes it to
    /// `next(after:wokenSince:)`, so a wake in between is not missed.
    public var wakes: UInt64 { mailbox.wakes }

    /// Waits for a state newer than `sequence` (0: any state).
    ///
    /// - Parameter wakes: when given, return at once (nil) if `wakeAll()`
    ///   ran since `wakes` was read.
    /// - Returns: the newest state, or nil when woken by `wakeAll()` or when
    ///   the task was cancelled before a newer state came.
    public func next(after sequence: UInt64, wokenSince wakes: UInt64? = nil) async -> Entry? {
        Self.entry(await mailbox.next(after: sequence, wokenSince: wakes))
    }
}
