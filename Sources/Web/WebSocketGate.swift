import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// Decides each WebSocket upgrade request before any route runs: only `/ws`,
/// only with an allowed Host (421) and Origin (403), only while a stream
/// slot is free (503).
///
/// hummingbird-websocket answers every refused upgrade with a bare 400, so a
/// refusal is written here, straight to the socket by the connection's
/// `WebConnectionGuard`, which then closes the connection.
struct WebSocketGate: Sendable {
    let parts: WebRouter.Parts
    let maxMessageBytes: Int

    func shouldUpgrade(_ head: HTTPRequest, channel: any Channel)
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let refusal: (status: String, message: String, extra: String)
        if head.path?.split(separator: "?").first != "/ws" {
            refusal = ("404 Not Found", "not found: \(head.path ?? "") (the WebSocket is /ws)", "")
        } else if !parts.allowlist.allows(host: head.authority) {
            refusal = ("421 Misdirected Request", WebResponse.misdirectedMessage(host: head.authority), "")
        } else if !WebOriginPolicy.allows(head, allowlist: parts.allowlist, boundPort: parts.boundPort.port) {
            refusal = ("403 Forbidden", WebResponse.crossOriginMessage, "")
        } else if let slot = parts.slots.claim() {
            return .upgrade([:], WebSocketStates.handler(parts: parts, slot: slot, maxMessageBytes: maxMessageBytes))
        } else {
            refusal = ("503 Service Unavailable", "too many live streams (\(parts.slots.limit)); close a tab or try again later",
                       "Retry-After: 5\r\n")
        }
        if let connectionGuard = try? channel.pipeline.syncOperations.handler(type: WebConnectionGuard.self) {
            connectionGuard.refuse(status: refusal.status, message: refusal.message, extraHeaders: refusal.extra)
        }
        return .dontUpgrade
    }
}
