import Foundation
import Knob
import Motion
import Testing
import TiltdTestSupport
import Web

/// The page in headless Chromium against an in-process server fed by the
/// test: the shines' CSS follows the streamed states.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebPageBrowserTests {
    @Test(.enabled(if: WebBrowser.executable != nil))
    func shineTransformsFollowTheStreamedStates() async throws {
        let profile = try TestPaths.temporaryDirectory()
        try await WebServerTests.withServer { server, port in
            // A state at once (what /state gives), then a live stream at 100 Hz
            // for as long as the browser runs.
            let running = Self.produceStates(into: server.feed)
            defer { running.set() }
            let dom = try WebBrowser.run((ProcessInfo.processInfo.environment["TILTD_CHROMIUM_FLAGS"] ?? "--virtual-time-budget=3000 --dump-dom").split(separator: " ").map(String.init),
                                         url: "http://127.0.0.1:\(port)/?frames=30", profile: profile,
                                         marker: "id=\"knob\"")
            let knob = WebBrowser.attributes(ofElementWithID: "knob", in: dom)
            #expect(knob["data-via"] == "events", "the page applied states from the stream: \(knob)")
            #expect(Int(knob["data-applied"] ?? "0") ?? 0 >= 2)
            let t = try #require(knob["data-t"].flatMap(Double.init))
            let index = Int((t / 0.005).rounded())
            let expected = Self.state(index)
            #expect(abs((Double(knob["data-shine1-rotation"] ?? "") ?? .nan) - expected.shines.first.rotation) < 1e-4)
            #expect(abs((Double(knob["data-shine2-opacity"] ?? "") ?? .nan) - expected.shines.second.opacity) < 1e-4)
            let shine1 = WebBrowser.attributes(ofElementWithID: "shine1", in: dom)["style"] ?? ""
            let shine2 = WebBrowser.attributes(ofElementWithID: "shine2", in: dom)["style"] ?? ""
            #expect(shine1.contains("rotate(\(knob["data-shine1-rotation"] ?? "?")rad)"), "shine 1 style: \(shine1)")
            #expect(shine2.contains("rotate(\(knob["data-shine2-rotation"] ?? "?")rad)"), "shine 2 style: \(shine2)")
            #expect(shine2.contains("opacity: \(knob["data-shine2-opacity"] ?? "?")"), "shine 2 style: \(shine2)")
        }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func aNarrowWindowFitsAndThePlotScalesToTheTiltWithTicks() async throws {
        let profile = try TestPaths.temporaryDirectory()
        try await WebServerTests.withServer(layers: WebLayerImages(basePNG: WebServerTests.tinyPNG,
                                                                   shinePNG: WebServerTests.tinyPNG, size: 512)) { server, port in
            let running = Self.produceStates(into: server.feed)
            defer { running.set() }
            let dom = try WebBrowser.run(["--virtual-time-budget=3000", "--dump-dom"],
                                         url: "http://127.0.0.1:\(port)/?frames=60", profile: profile, window: "360,640",
                                         marker: "id=\"knob\"")
            // (Headless Chromium keeps windows at least 500 px wide: the page is
            // narrower than the 512 px knob asked for either way.)
            // Nothing wider than the window: no sideways scrolling.
            let body = WebBrowser.attributes(ofTag: "body", in: dom)
            #expect(body["data-overflow"] == "0", "page overflow at 360 px: \(body)")
            let plot = WebBrowser.attributes(ofElementWithID: "plot", in: dom)
            let width = try #require(plot["data-css-width"].flatMap(Double.init), "\(plot)")
            #expect(width > 100 && width < 512, "\(plot)")
            // Roll stays within ±0.6 rad (±34.4°), pitch ±0.2 rad: the scale
            // follows them (at most ±40° in steps of 20°), not a fixed ±90°.
            let knob = WebBrowser.attributes(ofElementWithID: "knob", in: dom)
            let low = try #require(plot["data-min"].flatMap(Double.init)), high = try #require(plot["data-max"].flatMap(Double.init))
            #expect(low >= -40 && high <= 40, "autoscaled: \(low)…\(high)")
            for key in ["data-roll", "data-pitch"] {
                let degrees = try #require(knob[key].flatMap(Double.init)) * 180 / .pi
                #expect(low <= degrees && degrees <= high, "\(key) \(degrees)° is on the scale \(low)…\(high)")
            }
            let ticks = (plot["data-ticks"] ?? "").split(separator: " ").compactMap { Double($0) }
            #expect((3...7).contains(ticks.count), "labelled ticks: \(ticks)")
            #expect(ticks.contains(0) && ticks.first == low && ticks.last == high)
            // The shines ease with KnobAnimator's curve over 1/120 s.
            #expect(knob["data-easing"] == "cubic-bezier(0.42, 0, 0.58, 1), cubic-bezier(0.42, 0, 0.58, 1)", "\(knob)")
            let seconds = (knob["data-duration"] ?? "").split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces).dropLast())
            }
            #expect(seconds.count == 2 && seconds.allSatisfy { abs($0 - 1.0 / 120) < 1e-5 }, "\(knob["data-duration"] ?? "")")
        }
    }

    /// Emits state 0 at once, then the sweep at 100 Hz on a thread of its
    /// own until the returned flag is set.
    static func produceStates(into feed: WebStateFeed) -> WebTestFlag {
        feed.emit(state(0))
        let running = WebTestFlag()
        Thread {
            var index = 1
            while !running.isSet {
                feed.emit(state(index))
                index += 1
                usleep(10_000)
            }
        }.start()
        return running
    }

    /// State `index` of a slow roll sweep: t = 5 ms × index, roll swinging
    /// through ±0.6 rad so both shines turn and fade.
    static func state(_ index: Int) -> KnobState {
        let t = Double(index) * 0.005
        return KnobState(tilt: TiltState(timestampNanoseconds: Int64(index) * 5_000_000,
                                         roll: 0.6 * sin(t * 2), pitch: 0.2 * cos(t * 3), orientation: .normal))
    }
}
