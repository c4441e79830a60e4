import FlyingFox
import Foundation
import Knob

/// Answers every request of `tiltd serve`. Read-only: anything but GET gets
/// 405 with `Allow: GET`.
///
///     /                  the page (WebPage)
///     /layers/base.png   knob base, from the project's rasterizer
///     /layers/shine.png  one shine, unrotated
///     /events            server-sent events, one per state
///     /ws                WebSocket, one text message per state
///     /state             the newest state as JSON; 503 before the first
///     /healthz           200 and a small JSON status
///
/// Live streams are limited (`WebStreamSlots`; beyond the limit 503) and
/// refused with 403 to browsers from another origin (`WebOriginPolicy`).
struct WebRouter: HTTPHandler, Sendable {
    let feed: WebStateFeed
    let slots: WebStreamSlots
    let layers: WebLayerImages
    /// Shown by /healthz: where states come from ("replay FILE", "device …").
    let sourceDescription: String
    let page: Data

    init(feed: WebStateFeed, slots: WebStreamSlots, layers: WebLayerImages, sourceDescription: String) {
        self.feed = feed
        self.slots = slots
        self.layers = layers
        self.sourceDescription = sourceDescription
        self.page = Data(WebPage.html(layerSize: layers.size).utf8)
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET else {
            return Self.text(.methodNotAllowed, "tiltd serve is read-only: use GET\n", extra: [HTTPHeader("Allow"): "GET"])
        }
        switch request.path {
        case "/", "/index.html":
            return Self.response(.ok, page, type: "text/html; charset=utf-8", cache: "no-cache")
        case "/layers/base.png":
            return Self.response(.ok, layers.basePNG, type: "image/png", cache: "max-age=3600")
        case "/layers/shine.png":
            return Self.response(.ok, layers.shinePNG, type: "image/png", cache: "max-age=3600")
        case "/state":
            guard let entry = feed.current else {
                return Self.response(.serviceUnavailable, Data(#"{"error":"no state yet: waiting for the first sample"}"#.utf8 + [10]),
                                     type: "application/json", cache: "no-store", extra: [HTTPHeader("Retry-After"): "1"])
            }
            var bytes: [UInt8] = []
            entry.state.appendJSONLine(to: &bytes)
            return Self.response(.ok, Data(bytes), type: "application/json", cache: "no-store")
        case "/healthz":
            let body = #"{"status":"ok","states":\#(feed.current?.sequence ?? 0),"streams":\#(slots.count),"source":"\#(Self.jsonEscaped(sourceDescription))"}"# + "\n"
            return Self.response(.ok, Data(body.utf8), type: "application/json", cache: "no-store")
        case "/events":
            return stream(request) { slot in
                var headers = HTTPHeaders()
                headers[.contentType] = "text/event-stream"
                headers[.cacheControl] = "no-store"
                return HTTPResponse(statusCode: .ok, headers: headers,
                                    body: HTTPBodySequence(from: WebEventStream(feed: feed, slot: slot)))
            }
        case "/ws":
            return try await streamWebSocket(request)
        default:
            return Self.text(.notFound, "not found: \(request.path) (try /, /state, /events, /healthz)\n")
        }
    }

    private func streamWebSocket(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard WebOriginPolicy.allows(origin: request.headers[HTTPHeader("Origin")], host: request.headers[.host]) else {
            return Self.text(.forbidden, "cross-origin stream refused: open the page from this server\n")
        }
        guard let slot = slots.claim() else { return Self.busy(limit: slots.limit) }
        let handler = WebSocketHTTPHandler.webSocket(WebSocketStates(feed: feed, slot: slot))
        return try await handler.handleRequest(request)
    }

    private func stream(_ request: HTTPRequest, _ make: (WebStreamSlots.Slot) -> HTTPResponse) -> HTTPResponse {
        guard WebOriginPolicy.allows(origin: request.headers[HTTPHeader("Origin")], host: request.headers[.host]) else {
            return Self.text(.forbidden, "cross-origin stream refused: open the page from this server\n")
        }
        guard let slot = slots.claim() else { return Self.busy(limit: slots.limit) }
        return make(slot)
    }

    private static func busy(limit: Int) -> HTTPResponse {
        text(.serviceUnavailable, "too many live streams (\(limit)); close a tab or try again later\n",
             extra: [HTTPHeader("Retry-After"): "5"])
    }

    private static func text(_ status: HTTPStatusCode, _ message: String, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        response(status, Data(message.utf8), type: "text/plain; charset=utf-8", cache: "no-store", extra: extra)
    }

    private static func response(_ status: HTTPStatusCode, _ body: Data, type: String, cache: String,
                                 extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[.cacheControl] = cache
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        for (name, value) in extra { headers[name] = value }
        return HTTPResponse(statusCode: status, headers: headers, body: body)
    }

    private static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
