import HummingbirdWebSocket
import Knob
import ServiceLifecycle

/// `GET /ws`: the same states as `/events`, one JSON text message each,
/// coalesced to the newest for a slow reader.
///
/// Messages from the browser are read and dropped (the stream is
/// read-only), each at most `maxMessageBytes` once reassembled: a longer one
/// (or an endless run of continuation frames) ends the connection instead
/// of growing a buffer. The stream ends when the browser closes it or the
/// server shuts down.
enum WebSocketStates {
    static func handler(feed: WebStateFeed, slot: WebStreamSlots.Slot,
                        maxMessageBytes: Int) -> WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context> {
        { inbound, outbound, _ in
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await _ in inbound.messages(maxSize: maxMessageBytes) {}
                    }
                    group.addTask {
                        var sequence: UInt64 = 0
                        var bytes: [UInt8] = []
                        while !Task.isCancelled && !Task.isShuttingDownGracefully {
                            guard let entry = await feed.next(after: sequence) else { continue }
                            sequence = entry.sequence
                            bytes.removeAll(keepingCapacity: true)
                            entry.appendJSONLine(to: &bytes)
                            bytes.removeLast()
                            try await outbound.write(.text(String(decoding: bytes, as: UTF8.self)))
                        }
                    }
                    // Either the browser went away (or sent too much), or we stop.
                    try await group.next()
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                feed.wakeAll()
            }
            withExtendedLifetime(slot) {}
        }
    }
}
