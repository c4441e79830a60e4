import Synchronization

/// Messages for the page beside the knob states, on the same streams: the
/// newest JSON value of each named channel (`levels`, `volume`, …).
///
/// Like `WebStateFeed`, nothing queues: a channel keeps only its newest
/// value and a reader takes every channel that changed since it last
/// looked, so a slow browser coalesces and costs no memory. Channel names
/// come from the server's own code, never from a client, so their number is
/// fixed. Posting wakes the state feed's readers (`WebStateFeed.wakeAll`),
/// which then collect the channels (`/events` as `event: NAME`, `/ws` as
/// `{"NAME":VALUE}`).
public final class WebChannelFeed: Sendable {
    /// One channel's newest value.
    public struct Message: Sendable, Equatable {
        public var channel: String
        /// A JSON value (object, number…), without a trailing newline.
        public var json: String
        /// Position among every message posted (1 for the first).
        public var sequence: UInt64
    }

    private struct Shared {
        var latest: [String: Message] = [:]
        var sequence: UInt64 = 0
    }

    private let shared = Mutex(Shared())
    private let states: WebStateFeed

    /// A feed whose posts wake the readers of `states`.
    public init(waking states: WebStateFeed) {
        self.states = states
    }

    /// Replaces `channel`'s value with `json` and wakes the streams.
    public func post(_ channel: String, json: String) {
        shared.withLock { shared in
            shared.sequence += 1
            shared.latest[channel] = Message(channel: channel, json: json, sequence: shared.sequence)
        }
        states.wakeAll()
    }

    /// The newest value of `channel`, nil before its first post.
    public func current(_ channel: String) -> Message? {
        shared.withLock { $0.latest[channel] }
    }

    /// Every channel posted after `sequence` (0: all), oldest first, and the
    /// sequence to ask after next time.
    public func messages(after sequence: UInt64) -> (messages: [Message], sequence: UInt64) {
        shared.withLock { shared in
            guard shared.sequence > sequence else { return ([], sequence) }
            let newer = shared.latest.values.filter { $0.sequence > sequence }.sorted { $0.sequence < $1.sequence }
            return (newer, shared.sequence)
        }
    }
}
