import HummingbirdWebSocket
import Knob
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// `GET /ws`: the same states as `/events`, one JSON text message each,
/// coalesced to the newest for a slow reader, and each channel of
/// the feed as `{"NAME":VALUE}` when it changes.
///
/// Messages from the browser are input (`WebInputSession`): refused with
/// `{"error":"…"}` unless `tiltd serve` enabled the control, and a
/// connection that sends faster than its limit is closed (1008). Each is at
/// most `maxMessageBytes` once reassembled: a longer one (or an endless run
/// of continuation frames) ends the connection instead of growing a buffer.
/// The stream ends when the browser closes it or the server shuts down.
enum WebSocketStates {
    static func handler(parts: WebRouter.Parts, slot: WebStreamSlots.Slot,
                        maxMessageBytes: Int) -> WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context> {
        let feed = parts.feed
        return { inbound, outbound, _ in
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        let session = WebInputSession(controls: parts.input, messagesPerSecond: parts.inputRate.perSecond,
                                                      burst: parts.inputRate.burst, shared: parts.sharedInputLimit)
                        defer { parts.input.viewerLeft(session.viewer) }
                        for try await message in inbound.messages(maxSize: maxMessageBytes) {
                            var text: String?
                            if case .text(let string) = message { text = string }
                            switch await session.handle(text: text) {
                            case .applied:
                                break
                            case .refused(let refusal):
                                try await outbound.write(.text(WebInputSession.errorMessage(refusal)))
                            case .overLimit(let reason):
                                try await outbound.close(.policyViolation, reason: reason)
                                return
                            }
                        }
                    }
                    group.addTask {
                        var reader = feed.reader()
                        while !Task.isCancelled && !Task.isShuttingDownGracefully {
                            guard let (messages, entry) = await reader.next() else { continue }
                            for message in messages {
                                try await outbound.write(.text(#"{"\#(message.channel)":\#(message.json)}"#))
                            }
                            if let entry {
                                // The record is UTF-8 JSON: a text frame of its bytes as they are.
                                try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text,
                                                                                data: ByteBuffer(bytes: entry.record))))
                            }
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
