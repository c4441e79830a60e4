import Foundation
import Glibc
import Images
import Knob
import Testing
import TiltdTestSupport

/// `tiltd serve --replay` end to end: the binary serves the rasterizer's
/// layers, /state, /healthz, refuses writes and foreign origins, and headless
/// Chromium shows the knob following the streamed states.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebServeTests {
    static let sweep = WebServeProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    /// Starts `tiltd serve --port 0 --size 128 …` and returns it with the port it printed.
    static func startServe(_ arguments: [String] = ["--replay", sweep, "--loop"],
                           devices: [URL] = []) throws -> (WebServeProcess, UInt16) {
        let tiltd = try WebServeProcess(devices: devices, ["--size", "128"] + arguments)
        return (tiltd, tiltd.port)
    }

    /// GET /state once the first sample is in: 503 until then, asked again
    /// every 20 ms; the 30 s deadline only bounds a serve that never gets one.
    static func firstState(port: UInt16) throws -> WebTestClient.Response {
        var state = try WebTestClient.request("GET", "/state", port: port)
        let deadline = Date().addingTimeInterval(30)
        while state.status == 503, Date() < deadline {
            usleep(20_000)
            state = try WebTestClient.request("GET", "/state", port: port)
        }
        return state
    }

    @Test func servesStateHealthLayersAndRefusesWrites() async throws {
        // Blocking calls run off Swift's small cooperative pool, which the
        // in-process servers of other suites need.
        try await WebServerTests.offPool {
            let (tiltd, port) = try Self.startServe()
            defer { _ = tiltd.stop(with: SIGKILL) }
            #expect(try WebTestClient.request("GET", "/healthz", port: port).status == 200)
            let state = try Self.firstState(port: port)
            #expect(state.status == 200)
            #expect(state.body.hasPrefix("{\"t\":") && state.body.contains("\"shine\":["))
            for layer in ["/layers/base.png", "/layers/shine.png"] {
                let client = try WebTestClient(port: port)
                client.send("GET", layer, port: port)
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == "image/png")
                #expect(Int(response.headers["content-length"] ?? "") ?? 0 > 100, "\(layer) is a real image")
            }
            #expect(try WebTestClient.request("HEAD", "/state", port: port).status == 200)
            #expect(try WebTestClient.request("GET", "/state", port: port, headers: ["Host": "evil.example:\(port)"]).status == 421)
            #expect(try WebTestClient.request("POST", "/state", port: port, body: "{}").status == 405)
            #expect(try WebTestClient.request("DELETE", "/", port: port).status == 405)
            let foreign = try WebTestClient.request("GET", "/ws", port: port,
                                                    headers: WebServerTests.upgradeHeaders(origin: "http://evil.example"))
            #expect(foreign.status == 403)
            #expect(tiltd.stop(with: SIGTERM))
            #expect(tiltd.process.terminationStatus == 0, "serve stops cleanly on SIGTERM: \(tiltd.stderr)")
        }
    }

    @Test func aRunOfContinuationFramesDoesNotGrowTheServersMemory() async throws {
        try await WebServerTests.offPool {
            let (tiltd, port) = try Self.startServe()
            let client = try WebAttackTests.openWebSocket(port: port)
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            var sent = 0
            // Up to 64 MB of one unfinished message; the server must cut it off.
            while sent < 64 << 20, client.write(WebAttackTests.frame(opcode: sent == 0 ? 0x1 : 0x0, fin: false, payload: chunk)) {
                sent += chunk.count
                if client.waitForClose(timeout: 0.001) { break }
            }
            #expect(sent < 64 << 20, "the server stopped reading after \(sent) bytes")
            // (The resident memory this takes is reported by bench/bounds.sh, not asserted here.)
            #expect(WebTestClient.health(port: port) == 200)
            #expect(tiltd.stop())
        }
    }

    /// A WebSocket browser that stops reading in the middle of a message
    /// (its send buffer full, its message unfinished) cannot hold
    /// `tiltd serve` open: SIGTERM ends it, cleanly, after the server's
    /// 0.5 s drain (5 s asserted: CI machines are loaded).
    @Test func sigtermEndsServeWhileAWebSocketHangsMidMessage() async throws {
        try await WebServerTests.offPool {
            let (tiltd, port) = try Self.startServe()
            let client = try WebAttackTests.openWebSocket(port: port)
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 48 * 1024)
            // A message over the 64 KiB limit, never finished, the server's
            // close frame never answered, the states the replay sends never read.
            #expect(client.write(WebAttackTests.frame(opcode: 0x1, fin: false, payload: chunk)))
            _ = client.write(WebAttackTests.frame(opcode: 0x0, fin: false, payload: chunk))
            #expect(WebTestClient.health(port: port, timeout: 20) == 200)
            kill(tiltd.tiltdPID, SIGTERM)
            let exited = TestPaths.eventually(5) { !tiltd.process.isRunning }
            #expect(exited, "tiltd serve still running 5 s after SIGTERM: \(tiltd.stderr)")
            guard exited else { return }
            tiltd.process.waitUntilExit()
            #expect(tiltd.process.terminationReason == .exit && tiltd.process.terminationStatus == 0,
                    "\(tiltd.stderr)")
            withExtendedLifetime(client) {}
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")))
    func servesALiveDevice() async throws {
        // Blocking calls run off Swift's small cooperative pool, which the
        // in-process servers of other suites need.
        try await WebServerTests.offPool {
            // A polled accelerometer lying face up (1 g on z).
            let dir = try TestPaths.temporaryDirectory()
            let device = URL(fileURLWithPath: dir + "/flat.umockdev")
            try """
                P: /devices/platform/serve-accel/iio:device0
                E: SUBSYSTEM=iio
                A: name=serve_accel\\n
                A: in_accel_x_raw=0\\n
                A: in_accel_y_raw=0\\n
                A: in_accel_z_raw=256\\n
                A: in_accel_scale=0.038320312\\n
                A: sampling_frequency=50\\n

                """.write(to: device, atomically: true, encoding: .utf8)
            let (tiltd, port) = try Self.startServe(["--mode", "poll"], devices: [device])
            defer { _ = tiltd.stop(with: SIGKILL) }
            let state = try Self.firstState(port: port)
            #expect(state.status == 200, "\(tiltd.stderr)")
            // Flat and still: roll 0, pitch 0, both shines at rest.
            #expect(state.body.contains(#""roll":0,"pitch":0"#), "\(state.body)")
            #expect(state.body.contains(#""shine":[{"rotation":0,"opacity":1},{"rotation":0,"opacity":1}]"#))
            let health = try WebTestClient.request("GET", "/healthz", port: port)
            #expect(health.body.contains(#""source":"device display accelerometer at local:""#), "\(health.body)")
            // The event stream says that the device is open, and which.
            let events = try WebTestClient(port: port)
            events.send("GET", "/events", port: port)
            #expect(try events.readResponse().status == 200)
            let stream = events.readStream(timeout: 30) { $0.contains(#""gyroscope":false}"#) }
            #expect(stream.contains(#"event: device\#ndata: {"open":true,"device":"iio:device0 (serve_accel)","gyroscope":false}"#),
                    "\(stream.suffix(400))")
            #expect(tiltd.stop(with: SIGINT))
            #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func chromiumShowsTheKnobFollowingTheReplay() async throws {
        // Blocking calls run off Swift's small cooperative pool, which the
        // in-process servers of other suites need.
        try await WebServerTests.offPool {
            // Every state the replay can produce, to look up what the page applied.
            let replayed = try TestPaths.temporaryDirectory() + "/replay.jsonl"
            let replay = Process()
            replay.executableURL = URL(fileURLWithPath: WebServeProcess.binary)
            replay.arguments = ["replay", Self.sweep]
            _ = FileManager.default.createFile(atPath: replayed, contents: nil)
            replay.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: replayed))
            try replay.run()
            replay.waitUntilExit()
            #expect(replay.terminationStatus == 0)
            var byTime: [String: [String: Double]] = [:]
            for line in try String(contentsOfFile: replayed, encoding: .utf8).split(separator: "\n") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let shine = object["shine"] as? [[String: Double]], let t = object["t"] as? Double else { continue }
                byTime[String(format: "%.6f", t)] = ["r1": shine[0]["rotation"]!, "o1": shine[0]["opacity"]!,
                                                      "r2": shine[1]["rotation"]!, "o2": shine[1]["opacity"]!]
            }
            let (tiltd, port) = try Self.startServe()
            defer { _ = tiltd.stop(with: SIGKILL) }
            let profile = try TestPaths.temporaryDirectory()
            let url = "http://127.0.0.1:\(port)/?frames=40"
            let dom = try WebBrowser.run(["--virtual-time-budget=3000", "--dump-dom"], url: url, profile: profile,
                                         marker: "id=\"knob\"")
            let knob = WebBrowser.attributes(ofElementWithID: "knob", in: dom)
            #expect(knob["data-via"] == "events", "states came from the live stream: \(knob)")
            #expect(Int(knob["data-applied"] ?? "0") ?? 0 >= 2)
            let t = try #require(knob["data-t"].flatMap(Double.init))
            let expected = try #require(byTime[String(format: "%.6f", t)], "t = \(t) is one of the replay's states")
            #expect(abs((Double(knob["data-shine1-rotation"] ?? "") ?? .nan) - expected["r1"]!) < 1e-9)
            #expect(abs((Double(knob["data-shine1-opacity"] ?? "") ?? .nan) - expected["o1"]!) < 1e-9)
            #expect(abs((Double(knob["data-shine2-rotation"] ?? "") ?? .nan) - expected["r2"]!) < 1e-9)
            #expect(abs((Double(knob["data-shine2-opacity"] ?? "") ?? .nan) - expected["o2"]!) < 1e-9)
            let shine1 = WebBrowser.attributes(ofElementWithID: "shine1", in: dom)["style"] ?? ""
            let shine2 = WebBrowser.attributes(ofElementWithID: "shine2", in: dom)["style"] ?? ""
            #expect(shine1.contains("rotate(\(knob["data-shine1-rotation"] ?? "?")rad)"), "\(shine1)")
            #expect(shine2.contains("rotate(\(knob["data-shine2-rotation"] ?? "?")rad)"), "\(shine2)")
            #expect(shine1.contains("opacity: \(knob["data-shine1-opacity"] ?? "?")") || knob["data-shine1-opacity"] == "1" && !shine1.contains("opacity: 0"))

            // A screenshot that shows the knob: the base layer's grey disc sits in
            // the page's top-left area, the page background is #2a2a2c.
            let shot = profile + "/page.png"
            _ = try WebBrowser.run(["--virtual-time-budget=3000", "--screenshot=\(shot)"], url: url, profile: profile + "/shot",
                                 marker: nil)
            let image = try PNGReader.read(path: shot)
            #expect(image.width == 800 && image.height == 600)
            var metal = 0
            for y in 60..<200 {
                for x in 20..<160 {
                    let p = image[x, y]
                    // Brushed metal: a light, nearly neutral grey, far from the background.
                    if p.r > 90 && abs(Int(p.r) - Int(p.b)) < 24 && abs(Int(p.r) - Int(p.g)) < 24 { metal += 1 }
                }
            }
            #expect(metal > 2000, "the screenshot (\(shot)) shows a grey knob: \(metal) metal pixels")
        }
    }
}
