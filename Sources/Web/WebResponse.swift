import Foundation
import Hummingbird
import Motion
import Wording

/// The responses `tiltd serve` builds: every one says its type, whether it
/// may be cached, and `nosniff`.
enum WebResponse {
    static func bytes(_ status: HTTPResponse.Status, _ body: some Sequence<UInt8>, type: String, cache: String,
                      extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: cache]
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A one-line plain-text answer (errors and refusals).
    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        bytes(status, Array((message + "\n").utf8), type: "text/plain; charset=utf-8", cache: "no-store", extra: extra)
    }

    static func json(_ status: HTTPResponse.Status, _ body: [UInt8], extra: HTTPFields = [:]) -> Response {
        bytes(status, body, type: "application/json", cache: "no-store", extra: extra)
    }

    /// 421 for a Host not on the allowlist.
    static func misdirected(host: String?) -> Response {
        text(.init(code: 421, reasonPhrase: "Misdirected Request"), misdirectedMessage(host: host))
    }

    static func misdirectedMessage(host: String?) -> String {
        guard let host, !host.isEmpty else { return "no Host header: tiltd serve answers only requests that name it" }
        return "Host \(host) is not served here: open the page as localhost or 127.0.0.1, or start tiltd serve with \(Setting.allowHost) \(WebHostAllowlist.split(authority: host)?.name ?? host)"
    }

    static let crossOriginMessage = "cross-origin stream refused: open the page from this server"
}
