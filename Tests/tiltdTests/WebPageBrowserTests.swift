import Foundation
import Knob
import Motion
import Testing
import TiltdTestSupport
@testable import tiltd

/// The page in headless Chromium against an in-process server fed by the
/// test: the shines' CSS follows the streamed states.
@Suite(.serialized) struct WebPageBrowserTests {
    @Test(.enabled(if: WebBrowser.executable != nil))
    func shineTransformsFollowTheStreamedStates() async throws {
        let profile = try TestPaths.temporaryDirectory()
        try await WebServerTests.withServer { server, port in
            // A state at once (what /state gives), then a live stream at 100 Hz
            // for as long as the browser runs.
            server.feed.emit(TestStates.state(0))
            let running = WebTestFlag()
            let producer = Thread {
                var index = 1
                while !running.isSet {
                    server.feed.emit(TestStates.state(index))
                    index += 1
                    usleep(10_000)
                }
            }
            producer.start()
            defer { running.set() }
            let dom = try WebBrowser.run((ProcessInfo.processInfo.environment["TILTD_CHROMIUM_FLAGS"] ?? "--virtual-time-budget=3000 --dump-dom").split(separator: " ").map(String.init),
                                         url: "http://127.0.0.1:\(port)/?frames=30", profile: profile)
            let knob = WebBrowser.attributes(ofElementWithID: "knob", in: dom)
            #expect(knob["data-via"] == "events", "the page applied states from the stream: \(knob)")
            #expect(Int(knob["data-applied"] ?? "0") ?? 0 >= 2)
            let t = try #require(knob["data-t"].flatMap(Double.init))
            let index = Int((t / 0.005).rounded())
            let expected = TestStates.state(index)
            #expect(abs((Double(knob["data-shine1-rotation"] ?? "") ?? .nan) - expected.shines.first.rotation) < 1e-4)
            #expect(abs((Double(knob["data-shine2-opacity"] ?? "") ?? .nan) - expected.shines.second.opacity) < 1e-4)
            let shine1 = WebBrowser.attributes(ofElementWithID: "shine1", in: dom)["style"] ?? ""
            let shine2 = WebBrowser.attributes(ofElementWithID: "shine2", in: dom)["style"] ?? ""
            #expect(shine1.contains("rotate(\(knob["data-shine1-rotation"] ?? "?")rad)"), "shine 1 style: \(shine1)")
            #expect(shine2.contains("rotate(\(knob["data-shine2-rotation"] ?? "?")rad)"), "shine 2 style: \(shine2)")
            #expect(shine2.contains("opacity: \(knob["data-shine2-opacity"] ?? "?")"), "shine 2 style: \(shine2)")
        }
    }

    /// State `index` of a slow roll sweep: t = 5 ms × index, roll swinging
    /// through ±0.6 rad so both shines turn and fade.
    static func state(_ index: Int) -> KnobState {
        let t = Double(index) * 0.005
        return KnobState(tilt: TiltState(timestampNanoseconds: Int64(index) * 5_000_000,
                                         roll: 0.6 * sin(t * 2), pitch: 0.2 * cos(t * 3), orientation: .normal))
    }
}
