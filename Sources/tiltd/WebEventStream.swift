import FlyingFox
import FlyingSocks
import Knob

/// The body of `GET /events`: server-sent events, one `data:` event per
/// state (the JSON Lines record), newest first when a reader fell behind,
/// and a `: keep-alive` comment whenever the feed is woken with nothing new.
///
/// FlyingFox writes each buffer this sequence yields as one HTTP chunk; the
/// sequence ends when its task is cancelled (server stopping) and the
/// connection ends when a write fails (browser gone).
struct WebEventStream: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let feed: WebStateFeed
    /// Held for as long as the stream exists; frees the stream slot after.
    let slot: WebStreamSlots.Slot

    func makeAsyncIterator() -> Iterator {
        Iterator(feed: feed, slot: slot)
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let feed: WebStateFeed
        let slot: WebStreamSlots.Slot
        private var sequence: UInt64 = 0
        private var started = false

        init(feed: WebStateFeed, slot: WebStreamSlots.Slot) {
            self.feed = feed
            self.slot = slot
        }

        mutating func next() async throws -> UInt8? {
            fatalError("WebEventStream is read with nextBuffer(suggested:)")
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if !started {
                started = true
                // Reconnect after 1 s if the connection drops (EventSource).
                return Array("retry: 1000\n\n".utf8)
            }
            if Task.isCancelled { return nil }
            guard let entry = await feed.next(after: sequence) else {
                return Task.isCancelled ? nil : Array(": keep-alive\n\n".utf8)
            }
            sequence = entry.sequence
            var bytes: [UInt8] = Array("data: ".utf8)
            bytes.reserveCapacity(200)
            entry.state.appendJSONLine(to: &bytes)
            bytes.removeLast()  // the record's newline; SSE ends an event with a blank line
            bytes.append(contentsOf: "\n\n".utf8)
            return bytes
        }
    }
}
