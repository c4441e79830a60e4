import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// Decides each WebSocket upgrade request before any route runs: only `/ws`,
/// only with an allowed Host (421), Origin and Sec-Fetch-Site (403), only
/// while a stream slot is free, in all and for the client's address (503)
/// (`WebStreamAdmission`). An upgraded connection's `WebConnectionGuard`
/// then checks that every frame from the browser is masked.
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
        let connectionGuard = try? channel.pipeline.syncOperations.handler(type: WebConnectionGuard.self)
        if head.path?.split(separator: "?").first != "/ws" {
            refusal = ("404 Not Found", "not found: \(head.path ?? "") (the WebSocket is /ws)", "")
        } else if !parts.allowlist.allows(host: head.authority) {
            refusal = ("421 Misdirected Request", WebResponse.misdirectedMessage(host: head.authority), "")
        } else {
            switch WebStreamAdmission.admit(head, remote: channel.remoteAddress, parts: parts) {
            case .success(let slot) where connectionGuard?.upgradingToWebSocket() != false:
                return .upgrade([:], WebSocketStates.handler(parts: parts, slot: slot, maxMessageBytes: maxMessageBytes))
            case .success:
                refusal = ("400 Bad Request", "WebSocket frames must be masked and wait for the server's answer "
                    + "(RFC 6455 §4.1, §5.1)", "")
            case .failure(let refused):
                refusal = (refused.statusLine, refused.message, refused.extraHeaderLines)
            }
        }
        connectionGuard?.refuse(status: refusal.status, message: refusal.message, extraHeaders: refusal.extra)
        return .dontUpgrade
    }
}
