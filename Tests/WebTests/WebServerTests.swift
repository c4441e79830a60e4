import Foundation
import Knob
import Motion
import Testing
import TiltdTestSupport
import Web

/// `tiltd serve`'s HTTP side in-process: routes, read-only, HEAD, origin
/// checks, the stream limit and the event stream's content.
@Suite(.timeLimit(.minutes(15))) struct WebServerTests {
    /// A 1×1 transparent PNG: these tests check routing, not pixels (the
    /// browser test serves the rasterizer's layers).
    static let tinyPNG = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])

    /// Runs `body` against a server on a free loopback port, on a thread of
    /// its own: the test clients block in poll(2), which must not starve the
    /// server's tasks on Swift's small cooperative pool.
    static func withServer(maxStreams: Int = 8, layers: WebLayerImages? = nil,
                           input: WebInputControls = WebInputControls(), larsBar: WebLARSBar? = nil,
                           feed: WebStateFeed = WebStateFeed(), controls: WebPageControls = WebPageControls(),
                           configure: (inout WebServerConfiguration) -> Void = { _ in },
                           _ body: @escaping @Sendable (WebServer, UInt16) throws -> Void) async throws {
        // The server sizes its connection budget from the descriptors left now.
        TestFileLimit.raise()
        var configuration = WebServerConfiguration(host: "127.0.0.1", port: 0, maxStreams: maxStreams,
                                                   sourceDescription: "test \"feed\"")
        configure(&configuration)
        let server = try WebServer(configuration: configuration,
                                   layers: layers ?? WebLayerImages(basePNG: tinyPNG, shinePNG: tinyPNG + Data([0]), size: 1),
                                   feed: feed, input: input, larsBar: larsBar, controls: controls)
        // The server's tasks on threads of their own too: blocking tests of
        // other suites may hold every cooperative thread for seconds.
        let task = Task(executorPreference: TestThreadExecutor()) { try await server.run() }
        defer { task.cancel() }
        try await withTaskExecutorPreference(TestThreadExecutor()) {
            try await server.waitUntilListening()
            let port = try #require(server.listeningPort)
            try body(server, port)
            task.cancel()
            _ = await task.result
        }
    }

    /// Runs blocking `work` on a new thread and waits for it without
    /// holding a cooperative thread.
    ///
    /// The work stays in the test's own task (on a thread of its own, by
    /// executor preference), so its `#expect` failures are the test's.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await TestThreadExecutor.offPool(work)
    }

    @Test func healthzAnswers() async throws {
        try await Self.withServer { _, port in
            let response = try WebTestClient.request("GET", "/healthz", port: port)
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.body.contains(#""status":"ok""#))
            #expect(response.body.contains(#""source":"test \"feed\"""#))
        }
    }

    @Test func stateIs503BeforeTheFirstThenTheNewestState() async throws {
        try await Self.withServer { server, port in
            let before = try WebTestClient.request("GET", "/state", port: port)
            #expect(before.status == 503)
            #expect(before.body.contains("no state yet"))
            server.feed.emit(TestStates.state(3))
            server.feed.emit(TestStates.state(4))
            let after = try WebTestClient.request("GET", "/state", port: port)
            #expect(after.status == 200)
            #expect(after.headers["content-type"] == "application/json")
            #expect(after.body == TestStates.line(4) + "\n")
        }
    }

    @Test func pageAndLayersAreServed() async throws {
        try await Self.withServer { _, port in
            let page = try WebTestClient.request("GET", "/", port: port)
            #expect(page.status == 200)
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.body.contains("/layers/base.png"))
            #expect(page.body.contains("new EventSource('/events')"))
            // No request may leave this server: no absolute URLs in src/href.
            #expect(!page.body.contains("src=\"http"))
            #expect(!page.body.contains("href=\"http"))
            // The shines ease as KnobAnimator does (SPEC §1), not linearly.
            #expect(page.body.contains("transition: transform 8.333333ms cubic-bezier(0.42, 0, 0.58, 1), opacity 8.333333ms cubic-bezier(0.42, 0, 0.58, 1)"))
            #expect(!page.body.contains("ms linear"), "no transition is linear (the sliders' gradients may be)")
            let base = try WebTestClient.request("GET", "/layers/base.png", port: port)
            #expect(base.status == 200)
            #expect(base.headers["content-type"] == "image/png")
            #expect(base.headers["content-length"] == String(Self.tinyPNG.count))
            let shine = try WebTestClient.request("GET", "/layers/shine.png", port: port)
            #expect(shine.headers["content-length"] == String(Self.tinyPNG.count + 1))
            #expect(try WebTestClient.request("GET", "/nope", port: port).status == 404)
        }
    }

    /// A 404 lists the routes to try, /tiltd.js among them, and each one
    /// it lists is served (the WebSocket's plain GET is 426).
    @Test func aWrongPathListsEveryRouteToTry() async throws {
        try await Self.withServer { server, port in
            server.feed.emit(TestStates.state(1))
            let response = try WebTestClient.request("GET", "/nope", port: port)
            #expect(response.status == 404)
            let prefix = "not found: /nope (try ", suffix = ")\n"
            #expect(response.body.hasPrefix(prefix) && response.body.hasSuffix(suffix), "\(response.body)")
            let listed = response.body.dropFirst(prefix.count).dropLast(suffix.count).components(separatedBy: ", ")
            #expect(listed == ["/", "/state", "/events", "/ws", "/tiltd.js", "/healthz"], "\(response.body)")
            for path in listed where path != "/events" {
                let status = try WebTestClient.request("GET", path, port: port).status
                #expect(status == (path == "/ws" ? 426 : 200), "GET \(path): \(status)")
            }
        }
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
    func everythingButGetAndHeadIs405(method: String) async throws {
        try await Self.withServer { _, port in
            for path in ["/", "/state", "/events", "/healthz", "/nope"] {
                let response = try WebTestClient.request(method, path, port: port, body: "x")
                #expect(response.status == 405, "\(method) \(path)")
                #expect(response.headers["allow"] == "GET, HEAD")
            }
        }
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await Self.withServer { server, port in
            server.feed.emit(TestStates.state(5))
            for path in ["/", "/layers/base.png", "/state", "/healthz"] {
                let get = try WebTestClient.request("GET", path, port: port)
                let client = try WebTestClient(port: port)
                client.send("HEAD", path, port: port)
                let head = try client.readResponse(toHead: true)
                #expect(head.status == 200, "HEAD \(path)")
                #expect(head.headers["content-type"] == get.headers["content-type"], "HEAD \(path)")
                #expect(head.headers["content-length"] == get.headers["content-length"], "HEAD \(path)")
                // Nothing follows the head: the server closes (Connection: close) with no body.
                #expect(client.waitForClose(timeout: 20))
                #expect(client.unreadText.isEmpty, "HEAD \(path) sent a body: \(client.unreadText.prefix(80))")
            }
        }
    }

    static func upgradeHeaders(origin: String?) -> [String: String] {
        var headers = ["Upgrade": "websocket", "Connection": "Upgrade",
                       "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]
        headers["Origin"] = origin
        return headers
    }

    @Test func webSocketFromAForeignOriginIsRefused() async throws {
        try await Self.withServer { _, port in
            for origin in ["http://evil.example", "http://127.0.0.1:\(port &+ 1)", "null", "https://127.0.0.1:\(port)"] {
                let response = try WebTestClient.request("GET", "/ws", port: port, headers: Self.upgradeHeaders(origin: origin))
                #expect(response.status == 403, "Origin \(origin)")
            }
            let events = try WebTestClient.request("GET", "/events", port: port, headers: ["Origin": "http://evil.example"])
            #expect(events.status == 403)
        }
    }

    @Test func webSocketFromTheSameOriginOrNoOriginStreamsStates() async throws {
        try await Self.withServer { server, port in
            for origin in ["http://127.0.0.1:\(port)", nil] {
                let client = try WebTestClient(port: port)
                client.send("GET", "/ws", port: port, headers: Self.upgradeHeaders(origin: origin))
                let response = try client.readResponse()
                #expect(response.status == 101, "Origin \(origin ?? "none")")
                #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                server.feed.emit(TestStates.state(9))
                // One unmasked text frame (0x81) carrying the JSON record.
                let text = client.readStream { $0.contains(TestStates.line(9)) }
                #expect(text.contains(TestStates.line(9)))
            }
        }
    }

    @Test func eventStreamSendsEachStateAsAnEvent() async throws {
        try await Self.withServer { server, port in
            let client = try WebTestClient(port: port)
            client.send("GET", "/events", port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/event-stream")
            server.feed.emit(TestStates.state(1))
            var text = client.readStream { $0.contains("data: " + TestStates.line(1) + "\n\n") }
            #expect(text.contains("retry: 1000\n\n"))
            #expect(text.contains("data: " + TestStates.line(1) + "\n\n"))
            server.feed.emit(TestStates.state(2))
            text = client.readStream { $0.contains("data: " + TestStates.line(2) + "\n\n") }
            #expect(text.contains("data: " + TestStates.line(2) + "\n\n"))
            // The stream may not be waiting yet when woken: wake until it says so.
            for _ in 0..<100 where !text.contains(": keep-alive") {
                server.feed.wakeAll()
                text = client.readStream(timeout: 0.1) { $0.contains(": keep-alive") }
            }
            #expect(text.contains(": keep-alive\n\n"))
        }
    }

    @Test func liveStreamsAreLimited() async throws {
        // One client may hold them all here (WebStreamSourceTests checks the per-client limit).
        try await Self.withServer(maxStreams: 2, configure: { $0.maxStreamsPerClient = 2 }) { server, port in
            let open = try (0..<2).map { _ in try WebTestClient(port: port) }
            for client in open {
                client.send("GET", "/events", port: port)
                #expect(try client.readResponse().status == 200)
            }
            let refused = try WebTestClient.request("GET", "/events", port: port)
            #expect(refused.status == 503)
            #expect(refused.body.contains("too many live streams"))
            let ws = try WebTestClient.request("GET", "/ws", port: port, headers: Self.upgradeHeaders(origin: nil))
            #expect(ws.status == 503)
            #expect(server.slots.count == 2)
            // /state and the page still answer.
            #expect(try WebTestClient.request("GET", "/healthz", port: port).status == 200)
        }
    }

    @Test func aStreamWhoseBrowserLeftFreesItsSlot() async throws {
        try await Self.withServer(maxStreams: 1) { server, port in
            var client: WebTestClient? = try WebTestClient(port: port)
            client?.send("GET", "/events", port: port)
            #expect(try client?.readResponse().status == 200)
            #expect(server.slots.count == 1)
            #expect(try WebTestClient.request("GET", "/events", port: port).status == 503)
            client = nil  // the browser goes away
            // The server finds out when a write fails: states (or keep-alives) keep coming.
            var index = 0
            #expect(TestPaths.eventually(20) {
                index += 1
                server.feed.emit(TestStates.state(index))
                return server.slots.count == 0
            })
            let again = try WebTestClient(port: port)
            again.send("GET", "/events", port: port)
            #expect(try again.readResponse().status == 200)
        }
    }

}
