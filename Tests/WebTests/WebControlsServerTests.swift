import Foundation
import Knob
import Logging
import Motion
import Testing
import TiltdTestSupport
@testable import Web

/// The controls' server side over real sockets: who may set the light, and
/// which recordings can be downloaded.
@Suite(.timeLimit(.minutes(15))) struct WebControlsServerTests {
    /// A server whose page has the light's sliders (live or not) and a ring recording into a fresh directory.
    static func withControls(interactive: Bool,
                             _ body: @escaping @Sendable (WebServer, UInt16, WebPageControls) throws -> Void) async throws {
        let feed = WebStateFeed()
        let directory = try TestPaths.temporaryDirectory()
        let recorder = WebRingRecorder(directory: directory, limitSeconds: 45, header: TraceHeader(),
                                       logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) { _ in }
        let controls = WebPageControls(recorder: recorder,
                                       light: WebLightControl(initial: .white, interactive: interactive, feed: feed))
        var input = WebInputControls()
        controls.enableInput(in: &input)
        try await WebServerTests.withServer(input: input, feed: feed, controls: controls) { server, port in
            try body(server, port, controls)
        }
    }

    @Test func withoutInteractiveTheSlidersOnlyShowTheLight() async throws {
        try await Self.withControls(interactive: false) { server, port, controls in
            server.feed.emit(TestStates.state(1))
            let socket = try WebTestClient.webSocket(port: port)
            socket.sendWebSocketText(#"{"control":"light-red","value":0}"#)
            let reply = socket.readStream { $0.contains(#"{"error":"#) }
            #expect(reply.contains(#"\"light-red\" takes no input here"#), "\(reply)")
            #expect(controls.light?.colour == .white)
            // The page draws them disabled.
            let page = try WebTestClient.request("GET", "/", port: port).body
            #expect(page.contains(#"id="light-red" min="0" max="255" step="1" value="255" disabled"#))
            #expect(page.contains("--interactive"))
        }
    }

    @Test func withInteractiveASliderSetsTheLightEveryStreamCarries() async throws {
        try await Self.withControls(interactive: true) { server, port, controls in
            server.feed.emit(TestStates.state(1))
            let events = try WebTestClient(port: port)
            events.send("GET", "/events", port: port)
            #expect(try events.readResponse().status == 200)
            let socket = try WebTestClient.webSocket(port: port)
            socket.sendWebSocketText(#"{"control":"light-blue","value":0.5}"#)
            let seen = events.readStream { $0.contains(#""light":"FFFF80FF""#) }
            #expect(seen.contains(#""light":"FFFF80FF"}"#), "\(seen.suffix(300))")
            #expect(controls.light?.colour == LightColour(red: 255, green: 255, blue: 128))
            let state = try WebTestClient.request("GET", "/state", port: port).body
            #expect(state.hasPrefix(String(TestStates.line(1).dropLast())) && state.contains(#""light":"FFFF80FF""#))
        }
    }

    @Test func serveStartsWithTheLightColourGiven() throws {
        let serve = try WebServeProcess(["--replay", WebServeTests.sweep, "--loop", "--size", "16", "--light-color", "ffbf40"])
        defer { _ = serve.stop() }
        var state = ""
        #expect(TestPaths.eventually(30) {
            state = (try? WebTestClient.request("GET", "/state", port: serve.port).body) ?? ""
            return state.contains(#""shine""#)
        })
        #expect(state.contains(#""light":"FFBF40FF"}"#), "\(state)")
    }

    @Test func onlyFinishedRecordingsAreServed() async throws {
        try await Self.withControls(interactive: false) { _, port, controls in
            let recorder = try #require(controls.recorder)
            recorder.press(by: 1)
            recorder.record(Reading(timestampNanoseconds: 1, acceleration: SIMD3(0, 0, 9.81)))
            recorder.release(by: 1)
            let partial = try #require(try FileManager.default.contentsOfDirectory(atPath: recorder.directory).first)
            #expect(try WebTestClient.request("GET", "/recordings/" + partial, port: port).status == 404)
            recorder.finish(by: 1)
            // Completed by a task of its own: named and offered once written whole.
            #expect(TestPaths.eventually(30) { !recorder.offered.isEmpty }, "not offered within 30 s")
            let name = try #require(recorder.offered.last)
            let response = try WebTestClient.request("GET", "/recordings/" + name, port: port)
            #expect(response.status == 200 && response.body.hasPrefix("tiltd-trace 1\n"))
            for path in ["/recordings/ring-x.trace", "/recordings/..%2F..%2Fetc%2Fpasswd", "/recordings/../../etc/passwd"] {
                #expect(try WebTestClient.request("GET", path, port: port).status == 404, "\(path)")
            }
        }
    }
}
