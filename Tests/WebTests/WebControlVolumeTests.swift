import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// `tiltd serve --control-volume` end to end against a real PulseAudio
/// server the test starts (a null sink on a private runtime folder): the
/// page's input sets the default sink's volume, `pactl` changes move the
/// slider, and without the flag input is refused.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebControlVolumeTests {
    /// `pactl get-sink-volume test`'s first channel as a fraction.
    static func sinkVolume(_ pulse: PulseTestServer) throws -> Double? {
        let out = try pulse.pactl(["get-sink-volume", "test"]).stdout
        // "Volume: front-left: 19661 /  30% / -31.37 dB,   front-right: …"
        let raw = out.split(separator: ":").dropFirst(2).first?.split(separator: "/").first
        return raw.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { $0 / 65536 }
    }

    /// The value of the newest `event: volume` in an event stream's text.
    static func lastVolumeEvent(_ text: String) -> Double? {
        guard let range = text.range(of: "event: volume\ndata: {\"value\":", options: .backwards) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    @Test func dragInputSetsTheSinkAndPactlMovesTheSlider() async throws {
        try await WebServerTests.offPool {
            let pulse = try PulseTestServer()
            defer { pulse.stop() }
            let serve = try WebServeProcess(environment: pulse.environment,
                                            ["--replay", WebServeTests.sweep, "--loop", "--size", "16", "--control-volume"])
            defer { _ = serve.stop(with: SIGKILL) }
            let port = serve.port
            let page = try WebTestClient.request("GET", "/", port: port).body
            #expect(page.contains(#"id="larsbar""#) && page.contains("interactive: true"))

            // The page's input: the sink follows.
            let socket = try WebTestClient.webSocket(port: port, origin: "http://127.0.0.1:\(port)")
            socket.sendWebSocketText(#"{"control":"volume","value":0.3}"#)
            #expect(TestPaths.eventually(10) { (try? Self.sinkVolume(pulse)).flatMap { $0 }.map { abs($0 - 0.3) < 0.001 } ?? false },
                    "sink volume \(String(describing: try? Self.sinkVolume(pulse)))")

            // A change made elsewhere: the stream says so.
            let events = try WebTestClient(port: port)
            events.send("GET", "/events", port: port)
            #expect(try events.readResponse().status == 200)
            #expect(try pulse.pactl(["set-sink-volume", "test", "60%"]).status == 0)
            let text = events.readStream(timeout: 10) { Self.lastVolumeEvent($0).map { abs($0 - 0.6) < 0.001 } ?? false }
            #expect(Self.lastVolumeEvent(text).map { abs($0 - 0.6) < 0.001 } ?? false, "\(text.suffix(300))")
        }
    }

    @Test func withoutTheFlagTheSliderOnlyShowsAndInputIsRefused() async throws {
        try await WebServerTests.offPool {
            let pulse = try PulseTestServer()
            defer { pulse.stop() }
            let levels = try TestPaths.temporaryDirectory() + "/levels.jsonl"
            try #"{"t":0,"left":0.5,"right":0.25}"#.appending("\n").write(toFile: levels, atomically: true, encoding: .utf8)
            let serve = try WebServeProcess(environment: pulse.environment,
                                            ["--replay", WebServeTests.sweep, "--loop", "--size", "16", "--levels-file", levels])
            defer { _ = serve.stop(with: SIGKILL) }
            let page = try WebTestClient.request("GET", "/", port: serve.port).body
            #expect(page.contains(#"id="larsbar""#) && page.contains("interactive: false"))
            let before = try Self.sinkVolume(pulse)
            let socket = try WebTestClient.webSocket(port: serve.port)
            socket.sendWebSocketText(#"{"control":"volume","value":0.2}"#)
            let reply = socket.readStream { $0.contains(#"{"error":"#) }
            #expect(reply.contains("display-only"), "\(reply.suffix(300))")
            #expect(try Self.sinkVolume(pulse) == before)
            // The file's levels reach the page.
            let events = try WebTestClient(port: serve.port)
            events.send("GET", "/events", port: serve.port)
            #expect(events.readStream { $0.contains("event: levels\ndata: {\"t\":0,\"left\":0.5,\"right\":0.25}") }
                .contains("event: levels"))
        }
    }

    @Test func controlVolumeWithoutAnAudioServerIsOneClearLine() async throws {
        try await WebServerTests.offPool {
            let socket = try TestPaths.temporaryDirectory() + "/no-pulse"
            let serve = try? WebServeProcess(environment: ["PULSE_SERVER": "unix:" + socket],
                                             ["--replay", WebServeTests.sweep, "--size", "16", "--control-volume"])
            #expect(serve == nil, "serve must not start without an audio server")
        }
    }
}
