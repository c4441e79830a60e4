import Hummingbird
import Knob
import SamplePath

/// The routes of `tiltd serve`, all read-only (GET, and HEAD for each):
///
///     /                  the page (WebPage)
///     /layers/base.png   knob base, from the project's rasterizer
///     /layers/shine.png  one shine, unrotated
///     /layers/thumb-…    the LARSBar thumb's: thumb-base@Sx.png, thumb-shine@Sx.png (S = 1, 2, 3)
///     /events            server-sent events, one per state
///     /ws                WebSocket, one text message per state (WebSocketGate)
///     /state             the newest state as JSON; 503 before the first
///     /tiltd.js          states as deviceorientation/devicemotion events (WebTiltdScript)
///     /healthz           200 and a small JSON status
///
/// `WebRequestPolicy` runs first (Host allowlist, methods). Live streams are
/// limited, in all and per client address (`WebStreamSlots`; beyond the
/// limit 503), and refused with 403 to pages from other origins and sites
/// (`WebOriginPolicy`), as `WebStreamAdmission` decides.
enum WebRouter {
    struct Parts: Sendable {
        var feed: WebStateFeed
        var slots: WebStreamSlots
        var layers: WebLayerImages
        var allowlist: WebHostAllowlist
        var listening: NewestValue<Result<Int, WebServerError>?>
        /// Shown by /healthz: where states come from ("replay FILE", "device …").
        var sourceDescription: String
        /// What /ws input may change, and how fast one connection may send.
        var input: WebInputControls
        var inputRate: (perSecond: Double, burst: Int)
        /// How fast all connections together may send input.
        var sharedInputLimit: WebInputRateLimit
        /// The LARSBar slider beside the knob (`Setting.levels`), nil for none.
        var larsBar: WebLARSBar?
        /// The ring and the light's sliders (`WebPageControls`).
        var controls = WebPageControls()
    }

    /// The routes a 404 suggests: every one above but the images (which the
    /// page names itself) and the recordings (`WebRouter+Controls`).
    static let pathsToTry = ["/", "/state", "/events", "/ws", WebTiltdScript.path, "/healthz"]

    static func make(_ parts: Parts) -> Router<WebRequestContext> {
        let router = Router(context: WebRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: WebRequestPolicy(allowlist: parts.allowlist))
        let pageParts = parts.larsBar.map { [WebPage.larsBarPart($0)] } ?? []
        let page = Array(WebPage.html(layerSize: parts.layers.size, parts: pageParts, controls: parts.controls).utf8)
        for path in ["/", "/index.html"] {
            router.get(RouterPath(path)) { _, _ in
                WebResponse.bytes(.ok, page, type: "text/html; charset=utf-8", cache: "no-cache")
            }
        }
        addLayerRoutes(parts.layers, to: router) { "/layers/\($0).png" }
        for (scale, thumb) in parts.larsBar?.thumbs ?? [:] {
            addLayerRoutes(thumb, to: router) { "/layers/thumb-\($0)@\(scale)x.png" }
        }
        router.get("/state") { _, _ in
            guard let entry = parts.feed.current else {
                return WebResponse.json(.serviceUnavailable, Array(#"{"error":"no state yet: waiting for the first sample"}"#.utf8 + [10]),
                                        extra: [.retryAfter: "1"])
            }
            return WebResponse.json(.ok, entry.record + [UInt8(ascii: "\n")])
        }
        let tiltdScript = Array(WebTiltdScript.source.utf8)
        router.get(RouterPath(WebTiltdScript.path)) { _, _ in
            WebResponse.bytes(.ok, tiltdScript, type: "text/javascript; charset=utf-8", cache: "no-cache")
        }
        router.get("/healthz") { _, _ in
            let body = #"{"status":"ok","states":\#(parts.feed.current?.sequence ?? 0),"streams":\#(parts.slots.count),"source":"\#(parts.sourceDescription.jsonEscaped)"}"# + "\n"
            return WebResponse.json(.ok, Array(body.utf8))
        }
        router.get("/events") { request, context in
            let slot: WebStreamSlots.Slot
            switch WebStreamAdmission.admit(request.head, remote: context.remoteAddress, parts: parts) {
            case .success(let granted): slot = granted
            case .failure(let refusal): return refusal.response
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: WebEventStream.body(feed: parts.feed, slot: slot))
        }
        addControlRoutes(to: router, parts: parts)
        router.get("/ws") { _, _ in
            // Upgrades are answered before routing (WebSocketGate); this is a plain GET.
            WebResponse.text(.upgradeRequired, "/ws is a WebSocket: connect with a WebSocket client",
                             extra: [.upgrade: "websocket", .connection: "Upgrade"])
        }
        return router
    }

    /// Routes to `images`' PNG files at `path("base")` and `path("shine")`.
    static func addLayerRoutes(_ images: WebLayerImages, to router: Router<WebRequestContext>, path: (String) -> String) {
        for (layer, png) in [("base", images.basePNG), ("shine", images.shinePNG)] {
            let bytes = Array(png)
            router.get(RouterPath(path(layer))) { _, _ in WebResponse.bytes(.ok, bytes, type: "image/png", cache: "max-age=3600") }
        }
    }
}
