import Hummingbird
import Knob
import ServiceLifecycle

/// The body of `GET /events`: server-sent events, one `data:` event per
/// state (the JSON Lines record), newest first when a reader fell behind,
/// each changed channel of the feed as `event: NAME` (which a page's
/// `onmessage` ignores unless it listens for NAME), and a `: keep-alive`
/// comment whenever the feed is woken with nothing new.
///
/// The body ends when the server shuts down (gracefully or by
/// cancellation), and the connection ends when a write fails (browser gone).
enum WebEventStream {
    /// A streamed response body that holds `slot` for as long as it runs.
    static func body(feed: WebStateFeed, slot: WebStreamSlots.Slot) -> ResponseBody {
        ResponseBody { writer in
            try await withGracefulShutdownHandler {
                // Reconnect after 1 s if the connection drops (EventSource).
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var reader = feed.reader()
                var bytes: [UInt8] = []
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    guard let (messages, entry) = await reader.next() else {
                        if Task.isCancelled || Task.isShuttingDownGracefully { break }
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        continue
                    }
                    bytes.removeAll(keepingCapacity: true)
                    for message in messages {
                        bytes.append(contentsOf: "event: \(message.channel)\ndata: \(message.json)\n\n".utf8)
                    }
                    if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
                    guard let entry else { continue }
                    bytes.removeAll(keepingCapacity: true)
                    bytes.append(contentsOf: "data: ".utf8)
                    bytes.append(contentsOf: entry.record)
                    bytes.append(contentsOf: "\n\n".utf8)
                    try await writer.write(ByteBuffer(bytes: bytes))
                }
            } onGracefulShutdown: {
                feed.wakeAll()
            }
            try await writer.finish(nil)
            withExtendedLifetime(slot) {}
        }
    }
}
