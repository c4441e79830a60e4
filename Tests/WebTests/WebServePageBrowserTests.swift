import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// The built `tiltd serve`'s page in headless Chromium over the DevTools
/// protocol (`WebDevTools`), read from its DOM: the EQ slider's lights with
/// every combination of the page's options, the motion readout against
/// `/state` while the browser has sensors of its own, and the page's words
/// at 1000 px.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebServePageBrowserTests {
    /// Levels held at left 0.5 and right 0.85 (a JSON Lines level file of
    /// 2 s, which `tiltd serve` loops): at the slider's starting value 1 the
    /// lights lit are floor(40 · 0.5) = 20 and floor(40 · 0.85) = 34.
    static func levelsFile() throws -> String {
        let path = try TestPaths.temporaryDirectory() + "/levels.jsonl"
        let lines = (0..<200).map { #"{"t":\#(Double($0) / 100),"left":0.5,"right":0.85}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
    static let litFromTheLevels = "20 34"
    static let bar = "document.getElementById('larsbar').dataset"
    static let knob = "document.getElementById('knob').dataset"

    struct Combination: Sendable, CustomTestStringConvertible {
        var interactive: Bool
        var recordDir: Bool
        /// `--light-color` given (the colour sliders start from it).
        var lightColour: Bool
        var testDescription: String {
            "--levels-file" + (interactive ? " --interactive" : "") + (recordDir ? " --record-dir" : "")
                + (lightColour ? " --light-color" : "")
        }
    }

    static let combinations = [false, true].flatMap { interactive in
        [false, true].flatMap { recordDir in
            [false, true].map { Combination(interactive: interactive, recordDir: recordDir, lightColour: $0) }
        }
    }

    /// Records, from before the page's own scripts, when (ms on the page's
    /// clock) the slider's lights first showed the levels.
    static let lightsWatch = """
        window.litAt = null;
        new MutationObserver(() => {
          const bar = document.getElementById('larsbar');
          if (window.litAt === null && bar && bar.dataset.lit === '\(litFromTheLevels)') window.litAt = performance.now();
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lit'] });
        """

    @Test(.enabled(if: WebBrowser.executable != nil), arguments: combinations)
    func theLightsShowTheLevelsOnceOpened(_ combination: Combination) async throws {
        try await WebServerTests.offPool {
            var arguments = ["--replay", WebServeTests.sweep, "--loop", "--size", "64", "--levels-file", try Self.levelsFile()]
            if combination.interactive { arguments.append("--interactive") }
            if combination.recordDir { arguments += ["--record-dir", try TestPaths.temporaryDirectory()] }
            if combination.lightColour { arguments += ["--light-color", "4080FFC0"] }
            let serve = try WebServeProcess(arguments)
            defer { _ = serve.stop() }
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory())
            let page = try tools.openCollectingErrors("http://127.0.0.1:\(serve.port)/", script: Self.lightsWatch)
            // The lights show the levels with no other trigger than the
            // stream's own messages (the deadline covers a slow start of
            // Chromium on a loaded machine). How soon, on the page's clock,
            // is printed, not asserted: no test asserts wall-clock speed.
            try tools.waitFor(page, "window.litAt !== null", seconds: 30)
            let times = try #require(try tools.evaluate(page, """
                (n => [window.litAt, n.responseEnd, n.domContentLoadedEventEnd])(performance.getEntriesByType('navigation')[0])
                """) as? [Double])
            let sinceOpened = times[0] - times[1]
            print("lights lit \(sinceOpened) ms after the page opened (\(times[0]) ms after the request; "
                  + "DOMContentLoaded at \(times[2]) ms) with \(combination.testDescription)")
            #expect(try tools.evaluate(page, "document.getElementById('larsbarCaption').textContent") as? String
                    == "levels L 0.50 · R 0.85")
            // The page's stream: a WebSocket when it takes input, else /events.
            let takesInput = combination.interactive || combination.recordDir
            try tools.waitFor(page, "\(Self.knob).via === '\(takesInput ? "ws" : "events")'", seconds: 30)
            let (red, green, alpha) = combination.lightColour ? ("40", "80", "C0") : ("FF", "FF", "FF")
            #expect(try tools.evaluate(page, "\(Self.knob).light") as? String == red + green + "FF" + alpha)
            if combination.interactive {
                // A colour slider moved (blue to 0): the light changes and the lights stay lit.
                let start = try WebPageCombinationsBrowserTests.point(tools, page, of: "light-blue", xFraction: 0)
                try tools.mouse(page, "mousePressed", at: (start.x + 1, start.y))
                try tools.mouse(page, "mouseReleased", at: (start.x + 1, start.y))
                try tools.waitFor(page, "\(Self.knob).light === '\(red + green + "00" + alpha)'", seconds: 30)
                #expect(try tools.evaluate(page, "\(Self.bar).lit") as? String == Self.litFromTheLevels)
            }
            #expect(try tools.errors(page) == [], "uncaught errors on the page")
        }
    }

    /// The first 150 samples (3 s, in the middle of the hand motion) of the
    /// bundled NGIMU recording, which has a gyroscope: its states carry
    /// rotationRate and userAcceleration.
    static func shortGyroTrace() throws -> String {
        let source = WebServeProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path
        let lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var kept: [Substring] = [], samples = 0
        for line in lines {
            if line.hasPrefix("s ") {
                guard samples < 150 else { continue }
                samples += 1
            }
            kept.append(line)
        }
        let path = try TestPaths.temporaryDirectory() + "/ngimu-3s.trace"
        try kept.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `t` of the last state `tiltd replay` makes of `trace`.
    static func lastT(of trace: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WebServeProcess.binary)
        process.arguments = ["replay", trace]
        let out = try TestPaths.temporaryDirectory() + "/states.jsonl"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        try process.run()
        process.waitUntilExit()
        let last = try #require(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return try #require(object["t"] as? Double)
    }

    /// The browser's own sensors, overridden to readings far from the
    /// recording's, so that its trusted motion events fire all the time.
    static func overrideSensors(_ tools: WebDevTools, _ page: WebDevTools.Page) throws {
        for type in ["gyroscope", "accelerometer", "linear-acceleration", "gravity", "relative-orientation", "absolute-orientation"] {
            try tools.send("Emulation.setSensorOverrideEnabled", ["enabled": true, "type": type], page: page)
        }
        let xyz: [(String, [String: Double])] = [("gyroscope", ["x": 1, "y": 2, "z": 3]),
                                                 ("accelerometer", ["x": 4, "y": 5, "z": 6]),
                                                 ("linear-acceleration", ["x": 7, "y": 8, "z": 9]),
                                                 ("gravity", ["x": -3, "y": -3, "z": -3])]
        for (type, reading) in xyz {
            try tools.send("Emulation.setSensorOverrideReadings", ["type": type, "reading": ["xyz": reading]], page: page)
        }
        for type in ["relative-orientation", "absolute-orientation"] {
            try tools.send("Emulation.setSensorOverrideReadings",
                           ["type": type, "reading": ["quaternion": ["x": 0.3, "y": 0.1, "z": 0.3826834, "w": 0.8689]]], page: page)
        }
    }

    /// Counts the browser's own (trusted) motion events the page is sent,
    /// from before any of its scripts listen.
    static let nativeWatch = """
        window.nativeEvents = 0;
        for (const type of ['deviceorientation', 'devicemotion'])
          window.addEventListener(type, e => { if (e.isTrusted) window.nativeEvents += 1; }, true);
        """

    static let standardGravity = 9.80665
    static let degreesPerRadian = 180 / Double.pi

    /// The numbers in a readout text ("α 1.2 β -3.4 γ 5.6 °/s", "0.12 -0.34 9.81 m/s²").
    static func numbers(_ text: String) -> [Double] {
        text.split(separator: " ").compactMap { Double($0) }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func theReadoutShowsTiltdsMotionNotTheBrowsers() async throws {
        try await WebServerTests.offPool {
            let trace = try Self.shortGyroTrace()
            let lastT = try Self.lastT(of: trace)
            let serve = try WebServeProcess(["--replay", trace, "--size", "64"])
            defer { _ = serve.stop() }
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory())
            let page = try tools.openCollectingErrors("http://127.0.0.1:\(serve.port)/", script: Self.nativeWatch) { blank in
                try Self.overrideSensors(tools, blank)
            }
            // The recording ends and its last state stays: the page shows it.
            try tools.waitFor(page, "Math.abs(Number(\(Self.knob).t) - \(lastT)) < 1e-9", seconds: 60)
            // The browser's own events keep coming after it.
            _ = try tools.evaluate(page, "window.nativeEvents = 0")
            try tools.waitFor(page, "window.nativeEvents >= 5", seconds: 30)
            // The readout and /state at the same moment.
            let seen = try #require(try tools.evaluate(page, """
                fetch('/state', { cache: 'no-store' }).then(r => r.json()).then(state => {
                  const o = tiltd.orientation(state), d = document.getElementById('knob').dataset;
                  return { state: JSON.stringify(state), rotation: document.getElementById('rotationRate').textContent,
                           acceleration: document.getElementById('userAcceleration').textContent,
                           shown: [d.alpha, d.beta, d.gamma].map(Number), expected: [o.alpha, o.beta, o.gamma] };
                })
                """) as? [String: Any])
            let stateText = try #require(seen["state"] as? String)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(stateText.utf8)) as? [String: Any])
            #expect(abs((state["t"] as? Double ?? .nan) - lastT) < 1e-9, "/state is the last state: \(stateText)")
            let rate = try #require(state["rotationRate"] as? [Double], "a gyro's state: \(stateText)")
            let user = try #require(state["userAcceleration"] as? [Double], "\(stateText)")
            // W3C's frame turns tiltd's x and y; rotationRate's alpha, beta,
            // gamma are about z, x, y in °/s, shown to 0.1; acceleration in
            // m/s², shown to 0.01.
            let rotation = seen["rotation"] as? String ?? ""
            let expectedRotation = [rate[2], -rate[0], -rate[1]].map { $0 * Self.degreesPerRadian }
            let shownRotation = Self.numbers(rotation)
            #expect(shownRotation.count == 3 && zip(shownRotation, expectedRotation).allSatisfy { abs($0 - $1) <= 0.05 + 1e-9 },
                    "rotation shown \(rotation), /state's rotationRate \(rate) is \(expectedRotation) °/s")
            let acceleration = seen["acceleration"] as? String ?? ""
            let expectedAcceleration = [-user[0], -user[1], user[2]].map { $0 * Self.standardGravity }
            let shownAcceleration = Self.numbers(acceleration)
            #expect(shownAcceleration.count == 3
                    && zip(shownAcceleration, expectedAcceleration).allSatisfy { abs($0 - $1) <= 0.005 + 1e-9 },
                    "acceleration shown \(acceleration), /state's userAcceleration \(user) is \(expectedAcceleration) m/s²")
            // The attitude the page shows is tiltd's orientation of that state.
            let shown = seen["shown"] as? [Double] ?? [], expected = seen["expected"] as? [Double] ?? []
            #expect(shown.count == 3 && zip(shown, expected).allSatisfy { abs($0 - $1) < 1e-9 },
                    "attitude shown \(shown), tiltd's for /state \(expected)")
            #expect(try tools.errors(page) == [], "uncaught errors on the page")
        }
    }

    /// The words of the page's text that the layout split over two lines
    /// (each word's rectangles on more than one line).
    static let wordsBrokenAcrossLines = """
        (() => {
          const broken = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const words = /\\S+/g;
            let word;
            while ((word = words.exec(node.data))) {
              const range = document.createRange();
              range.setStart(node, word.index);
              range.setEnd(node, word.index + word[0].length);
              const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
              if (lines.size > 1) broken.push(word[0]);
            }
          }
          return broken;
        })()
        """

    @Test(.enabled(if: WebBrowser.executable != nil), arguments: [[], ["--interactive", "--record-dir"]])
    func noWordBreaksOnAPage1000PixelsWide(_ extra: [String]) async throws {
        try await WebServerTests.offPool {
            var arguments = ["--replay", WebServeProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path,
                             "--loop", "--levels-file", try Self.levelsFile()]
            for option in extra {
                arguments += option == "--record-dir" ? [option, try TestPaths.temporaryDirectory()] : [option]
            }
            let serve = try WebServeProcess(arguments)
            defer { _ = serve.stop() }
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory(), window: "1000,900")
            let page = try tools.openCollectingErrors("http://127.0.0.1:\(serve.port)/")
            #expect(try tools.evaluate(page, "window.innerWidth") as? Int == 1000)
            // Every row of the readout filled (a gyro's states) and the levels in.
            try tools.waitFor(page, "document.getElementById('rotationRate').textContent.endsWith('°/s') "
                + "&& document.getElementById('gyro').textContent.includes('bias') "
                + "&& \(Self.bar).lit === '\(Self.litFromTheLevels)'", seconds: 30)
            let broken = try tools.evaluate(page, Self.wordsBrokenAcrossLines) as? [String]
            #expect(broken == [], "words split over two lines at 1000 px: \(broken ?? ["unreadable"])")
        }
    }
}
