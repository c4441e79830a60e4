import Foundation
import Logging
import Motion
import Serve
import ServiceLifecycle
import Testing
import TiltdTestSupport
import Web
import Wording

/// The server as a swift-service-lifecycle `Service`: in a `ServiceGroup`,
/// a graceful shutdown ends its live streams and its run.
@Suite(.timeLimit(.minutes(15))) struct WebServiceTests {
    @Test func aGracefulShutdownEndsTheStreamsAndTheServer() async throws {
        let server = try WebServer(configuration: WebServerConfiguration(host: "127.0.0.1", port: 0, sourceDescription: "service"),
                                   layers: WebLayerImages(basePNG: WebServerTests.tinyPNG, shinePNG: WebServerTests.tinyPNG, size: 1))
        let group = ServiceGroup(configuration: .init(services: [server],
                                                      logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
        let running = Task(executorPreference: TestThreadExecutor()) { try await group.run() }
        try await server.waitUntilListening()
        let port = try #require(server.listeningPort)
        let stream = try await WebServerTests.offPool { () -> WebTestClient in
            let client = try WebTestClient(port: port)
            client.send("GET", "/events", port: port)
            _ = try client.readResponse()
            return client
        }
        #expect(server.slots.count == 1)
        await group.triggerGracefulShutdown()
        // The stream ends (its chunked body is finished, then the connection closes)…
        #expect(try await WebServerTests.offPool { stream.waitForClose(timeout: 10) })
        // …and the group returns without being cancelled.
        try await running.value
        #expect(server.slots.count == 0)
    }

    @Test func aPortInUseIsAnErrorThatSaysSo() async throws {
        let layers = WebLayerImages(basePNG: WebServerTests.tinyPNG, shinePNG: WebServerTests.tinyPNG, size: 1)
        let first = try WebServer(configuration: WebServerConfiguration(host: "127.0.0.1", port: 0), layers: layers)
        let running = Task(executorPreference: TestThreadExecutor()) { try await first.run() }
        defer { running.cancel() }
        try await first.waitUntilListening()
        let port = try #require(first.listeningPort)
        let second = try WebServer(configuration: WebServerConfiguration(host: "127.0.0.1", port: port), layers: layers)
        let failure = await #expect(throws: WebServerError.self) { try await second.run() }
        #expect(failure == .cannotListen(host: "127.0.0.1", port: port, reason: "address already in use"))
        await #expect(throws: try #require(failure), "waiting for a server whose run failed ends with its failure") {
            try await second.waitUntilListening()
        }
        #expect(failure?.message.parts.contains(.setting(.port)) == true)
        // `tiltd serve`'s run says which options to change.
        let configuration = try ServeConfiguration(server: WebServerConfiguration(host: "127.0.0.1", port: port),
                                                   layerSizePixels: 16, source: ServeConfigurationTests.replay,
                                                   slider: ServeSlider.Settings(), version: "test")
        let serveFailure = await #expect(throws: ServeError.self) {
            try await ServeRun(configuration).run(under: .withoutSignals)
        }
        #expect(serveFailure?.message == "cannot serve on 127.0.0.1:\(port): address already in use; check \(.host) "
            + "127.0.0.1 (it must be an address of this machine, e.g. 127.0.0.1) or choose another \(.port) if something "
            + "else uses \(port)")
        #expect(throws: WebServerError.badHost("localhost")) {
            try WebServer(configuration: WebServerConfiguration(host: "localhost", port: 0), layers: layers)
        }
    }
}
