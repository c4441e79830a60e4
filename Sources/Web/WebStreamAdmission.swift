import Hummingbird
import NIOCore

/// Whether a request may open a live stream (`/events`, `/ws`), its Host
/// already allowed: its `Origin` and `Sec-Fetch-Site` must be this
/// server's page or absent (`WebOriginPolicy`, else 403), and a stream
/// slot must be free, in all and for its client address (`WebStreamSlots`,
/// else 503).
enum WebStreamAdmission {
    /// Why a stream was refused: the status and the one-line message.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var message: String
        /// Seconds a client should wait before trying again, if any.
        var retryAfterSeconds: Int?
    }

    /// The slot for the stream `head` asks for, from the client at `remote`.
    static func admit(_ head: HTTPRequest, remote: SocketAddress?,
                      parts: WebRouter.Parts) -> Result<WebStreamSlots.Slot, Refusal> {
        guard WebOriginPolicy.allows(head, allowlist: parts.allowlist, boundPort: try? parts.listening.current.value?.get()) else {
            return .failure(Refusal(status: .forbidden, message: WebResponse.crossOriginMessage))
        }
        return parts.slots.claim(source: sourceName(remote))
    }

    /// The source a stream is counted against: the client's IP address.
    static func sourceName(_ remote: SocketAddress?) -> String {
        remote?.ipAddress ?? "an unknown address"
    }
}

extension WebStreamAdmission.Refusal {
    /// The refusal as a plain-text response.
    var response: Response {
        WebResponse.text(status, message, extra: retryAfterSeconds.map { [.retryAfter: String($0)] } ?? [:])
    }

    /// The status line's text (`503 Service Unavailable`), for refusals
    /// written straight to the socket.
    var statusLine: String { "\(status.code) \(status.reasonPhrase)" }

    /// Extra header lines, each ending in CRLF.
    var extraHeaderLines: String { retryAfterSeconds.map { "Retry-After: \($0)\r\n" } ?? "" }
}
