import Foundation
import Synchronization
import Testing
import TiltdTestSupport
import Web

/// Input on `/ws` against an in-process server: refused unless a control
/// is enabled, applied when it is, closed past the rate limit; and the
/// channels beside the states reach both streams.
@Suite(.timeLimit(.minutes(15))) struct WebInputServerTests {
    /// Values a control received, in order.
    final class Received: Sendable {
        private let values = Mutex<[Double]>([])
        func append(_ value: Double) { values.withLock { $0.append(value) } }
        var all: [Double] { values.withLock { $0 } }
    }

    @Test func withoutEnabledControlsEveryInputIsRefused() async throws {
        try await WebServerTests.withServer { _, port in
            let client = try WebTestClient.webSocket(port: port)
            client.sendWebSocketText(#"{"control":"volume","value":0.5}"#)
            let text = client.readStream { $0.contains(#"{"error":"#) }
            #expect(text.contains(#""volume\" is display-only here"#), "\(text)")
            // The connection stays open for the states.
            #expect(!client.waitForClose(timeout: 0.2))
        }
    }

    @Test func anEnabledControlGetsTheValuesInOrder() async throws {
        let received = Received()
        var input = WebInputControls()
        input.enable("volume", range: 0...1) { received.append($0) }
        try await WebServerTests.withServer(input: input) { _, port in
            let client = try WebTestClient.webSocket(port: port, origin: "http://127.0.0.1:\(port)")
            for value in [0.25, 0.5, 0.75] { client.sendWebSocketText(#"{"control":"volume","value":\#(value)}"#) }
            client.sendWebSocketText(#"{"control":"volume","value":2}"#)
            client.sendWebSocketText(#"{"control":"red","value":1}"#)
            let text = client.readStream { $0.contains("outside") && $0.contains("these do: volume") }
            #expect(text.contains(#"input refused: volume 2.0 is outside 0.0…1.0"#), "\(text)")
            #expect(TestPaths.eventually(5) { received.all == [0.25, 0.5, 0.75] }, "\(received.all)")
        }
    }

    @Test func aConnectionSendingFasterThanItsLimitIsClosed() async throws {
        let received = Received()
        var input = WebInputControls()
        input.enable("volume", range: 0...1) { received.append($0) }
        try await WebServerTests.withServer(input: input, configure: { $0.inputBurst = 5; $0.inputMessagesPerSecond = 1 }) { _, port in
            let client = try WebTestClient.webSocket(port: port)
            for i in 0..<50 { client.sendWebSocketText(#"{"control":"volume","value":0.0\#(i % 10)}"#) }
            #expect(client.waitForClose(timeout: 10), "closed past the limit")
            let close = try #require(client.receivedCloseFrame, "a close frame came first")
            #expect(close.code == 1008)
            #expect(close.reason.contains("more than 5 input messages at once or 1 a second"), "\(close.reason)")
            #expect(received.all.count <= 6, "at most the burst was applied: \(received.all.count)")
            // Other connections are not affected.
            #expect(try WebTestClient.request("GET", "/healthz", port: port).status == 200)
        }
    }

    /// Opening more connections does not buy more input.
    /// Four connections each within their own limit (5 at once) send 20
    /// messages together; the shared limit (6 at once) acts on 6 and
    /// refuses the rest, and no connection is closed for it.
    @Test func connectionsTogetherAreLimitedToo() async throws {
        let received = Received()
        var input = WebInputControls()
        input.enable("volume", range: 0...1) { received.append($0) }
        try await WebServerTests.withServer(input: input, configure: {
            $0.inputBurst = 5
            $0.inputMessagesPerSecond = 1
            $0.sharedInputBurst = 6
            $0.sharedInputMessagesPerSecond = 0.01
            $0.maxStreamsPerClient = 8  // these connections all come from 127.0.0.1
        }) { _, port in
            let clients = try (0..<4).map { _ in try WebTestClient.webSocket(port: port) }
            for (index, client) in clients.enumerated() {
                for i in 0..<5 { client.sendWebSocketText(#"{"control":"volume","value":0.\#(index)\#(i)}"#) }
            }
            let busy = "sent more than 0.01 input messages a second together"
            var refusals = 0
            #expect(TestPaths.eventually(20) {
                // What each connection was told so far (nothing is consumed).
                refusals = clients.map { $0.readStream(timeout: 0.05) { _ in false }.components(separatedBy: busy).count - 1 }
                    .reduce(0, +)
                return received.all.count + refusals == 20
            }, "\(received.all.count) applied + \(refusals) refused")
            #expect(received.all.count == 6, "the shared burst: \(received.all)")
            #expect(refusals == 14)
            #expect(clients.allSatisfy { !$0.waitForClose(timeout: 0.1) }, "refused, not closed")
            // A bad message is refused for what it is, and takes no shared token.
            let another = try WebTestClient.webSocket(port: port)
            another.sendWebSocketText(#"{"control":"red","value":1}"#)
            #expect(another.readStream { $0.contains("takes no input here") }.contains("takes no input here"))
        }
    }

    @Test func inputFromAForeignOriginNeverGetsAConnection() async throws {
        let received = Received()
        var input = WebInputControls()
        input.enable("volume", range: 0...1) { received.append($0) }
        try await WebServerTests.withServer(input: input) { _, port in
            let response = try WebTestClient.request("GET", "/ws", port: port,
                                                     headers: WebServerTests.upgradeHeaders(origin: "http://evil.example"))
            #expect(response.status == 403)
            let rebound = try WebTestClient.request("GET", "/ws", port: port, headers: WebServerTests.upgradeHeaders(origin: nil)
                .merging(["Host": "evil.example:\(port)"]) { $1 })
            #expect(rebound.status == 421)
        }
        #expect(received.all.isEmpty)
    }

    @Test func channelsReachTheEventStreamAndTheWebSocket() async throws {
        try await WebServerTests.withServer { server, port in
            let events = try WebTestClient(port: port)
            events.send("GET", "/events", port: port)
            #expect(try events.readResponse().status == 200)
            let socket = try WebTestClient.webSocket(port: port)
            // The streams may not be waiting yet: post until both saw it.
            var seen = ""
            #expect(TestPaths.eventually(10) {
                server.feed.post("volume", json: #"{"value":0.3}"#)
                seen = events.readStream(timeout: 0.1) { $0.contains("event: volume\ndata: {\"value\":0.3}\n\n") }
                return seen.contains("event: volume")
            }, "\(seen)")
            #expect(socket.readStream { $0.contains(#"{"volume":{"value":0.3}}"#) }.contains(#"{"volume":{"value":0.3}}"#))
            // A post while a stream is busy is not lost: the newest arrives.
            server.feed.post("levels", json: #"{"t":1,"left":0.5,"right":0.25}"#)
            server.feed.emit(TestStates.state(3))
            #expect(events.readStream { $0.contains(#"data: {"t":1,"left":0.5,"right":0.25}"#) }
                .contains("event: levels\ndata: {\"t\":1,\"left\":0.5,\"right\":0.25}\n\n"))
            // The state and the channel may go out in either order: read until both came.
            let frames = socket.readStream {
                $0.contains(TestStates.line(3)) && $0.contains(#"{"levels":{"t":1,"left":0.5,"right":0.25}}"#)
            }
            #expect(frames.contains(#"{"levels":{"t":1,"left":0.5,"right":0.25}}"#), "\(frames)")
        }
    }
}
