import Foundation
import Knob
import Logging
import Motion
import Testing
import TiltdTestSupport
@testable import Web

/// Every combination of the page's controls in headless
/// Chromium (the LARSBar slider off, display-only or setting the volume;
/// the recording ring off or on; the light's sliders display-only or
/// `--interactive`), against an in-process server: the page runs without
/// an uncaught error, the knob and the plot follow the states, and each
/// control shown works: the slider's lights and value follow the channels
/// and a press on it sends the volume, the ring takes a press, the light's
/// slider sets the light.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebPageCombinationsBrowserTests {
    enum Slider: String, CaseIterable, Sendable { case none, display, interactive }

    struct Combination: Sendable, CustomTestStringConvertible {
        var slider: Slider
        var ring: Bool
        var interactiveLight: Bool
        var testDescription: String { "slider \(slider.rawValue), ring \(ring ? "on" : "off"), light \(interactiveLight ? "interactive" : "display")" }
    }

    static let combinations = Slider.allCases.flatMap { slider in
        [false, true].flatMap { ring in [false, true].map { Combination(slider: slider, ring: ring, interactiveLight: $0) } }
    }

    static let knob = "document.getElementById('knob').dataset"

    /// The centre (or the point `xFraction` across) of element `id`,
    /// scrolled into the window first: with every control shown the page
    /// is taller than the window.
    static func point(_ tools: WebDevTools, _ page: WebDevTools.Page, of id: String,
                      xFraction: Double = 0.5) throws -> (x: Double, y: Double) {
        _ = try tools.evaluate(page, "document.getElementById('\(id)').scrollIntoView({ block: 'center' })")
        return try tools.centre(page, of: id, xFraction: xFraction)
    }
    static let bar = "document.getElementById('larsbar').dataset"

    @Test(.enabled(if: WebBrowser.executable != nil), arguments: combinations)
    func everyControlWorksBesideTheOthers(_ combination: Combination) async throws {
        let feed = WebStateFeed()
        let received = WebInputServerTests.Received()
        var input = WebInputControls()
        let bar: WebLARSBar?
        switch combination.slider {
        case .none: bar = nil
        case .display: bar = try WebLARSBar.render(interactive: false)
        case .interactive:
            bar = try WebLARSBar.render(interactive: true)
            input.enable(WebLARSBar.valueChannel, range: 0...1) { received.append($0) }
        }
        let recorder = try combination.ring ? WebRingRecorder(
            directory: TestPaths.temporaryDirectory(), limitSeconds: 10, header: TraceHeader(),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) { feed.post("ring", json: $0) } : nil
        let controls = WebPageControls(recorder: recorder,
                                       light: WebLightControl(initial: .white, interactive: combination.interactiveLight, feed: feed))
        controls.enableInput(in: &input)
        let layers = try WebLayerImages.render(size: 64)
        try await WebServerTests.withServer(layers: layers, input: input, larsBar: bar, feed: feed,
                                            controls: controls) { server, port in
            server.feed.post(WebLARSBar.levelsChannel, json: #"{"t":1,"left":0.5,"right":0.85}"#)
            server.feed.post(WebLARSBar.valueChannel, json: #"{"value":0.4,"muted":false}"#)
            // States keep coming while the page is open.
            let stop = WebTestFlag()
            let emitter = Thread {
                var index = 0
                while !stop.isSet {
                    index += 1
                    feed.emit(TestStates.state(index))
                    usleep(20_000)
                }
            }
            emitter.start()
            defer { stop.set() }
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory())
            let page = try tools.openCollectingErrors("http://127.0.0.1:\(port)/")
            try tools.waitFor(page, "document.getElementById('status').className === 'live' && Number(\(Self.knob).applied) > 3")
            // The plot's loop ran (it is the last part of the page's script).
            try tools.waitFor(page, "document.getElementById('plot').dataset.ticks !== undefined")
            if combination.slider != .none {
                try tools.waitFor(page, "document.getElementById('larsbarCaption').textContent.startsWith('levels L 0.50 · R 0.85')")
                try tools.waitFor(page, "\(Self.bar).value === '0.4' && \(Self.bar).lit === '8 13'")
            }
            if combination.slider == .interactive {
                let point = try Self.point(tools, page, of: "larsbar", xFraction: 0.75)
                try tools.mouse(page, "mousePressed", at: point)
                try tools.mouse(page, "mouseReleased", at: point)
                #expect(TestPaths.eventually(20) { !received.all.isEmpty }, "the slider sent the volume")
                #expect(received.all.allSatisfy { abs($0 - 0.75) < 0.1 }, "\(received.all)")
            }
            if combination.ring {
                try tools.waitFor(page, "document.getElementById('ring').dataset.phase === 'idle'")
                let centre = try Self.point(tools, page, of: "ring")
                try tools.mouse(page, "mousePressed", at: centre)
                try tools.waitFor(page, "document.getElementById('ring').dataset.phase === 'holding'")
                try tools.mouse(page, "mouseReleased", at: centre)
                try tools.waitFor(page, "document.getElementById('ring').dataset.phase === 'idle'")
            }
            if combination.interactiveLight {
                let start = try Self.point(tools, page, of: "light-blue", xFraction: 0)
                try tools.mouse(page, "mousePressed", at: (start.x + 1, start.y))
                try tools.mouse(page, "mouseReleased", at: (start.x + 1, start.y))
                try tools.waitFor(page, "\(Self.knob).light === 'FFFF00FF'")
            } else {
                #expect(try tools.evaluate(page, "document.getElementById('light-blue').disabled") as? Bool == true)
            }
            // One stream per page: the slider's input shares the page's WebSocket when it has one.
            let takesInput = combination.ring || combination.interactiveLight
            let streams = combination.slider == .interactive && !takesInput ? 2 : 1
            #expect(server.slots.count == streams, "\(server.slots.count) streams open")
            #expect(try tools.errors(page) == [], "uncaught errors on the page")
        }
    }

    /// A page on another site (here
    /// `http://localhost:PORT`, which is not the site of 127.0.0.1) puts
    /// eight `<img src=http://127.0.0.1:PORT/events>` on itself. Chromium
    /// sends them with `Sec-Fetch-Site: cross-site` and no `Origin`; every
    /// one is refused, while that page's own stream (same-origin) runs.
    @Test(.enabled(if: WebBrowser.executable != nil))
    func imagesOnAnotherSiteGetNoStream() async throws {
        let feed = WebStateFeed()
        let layers = try WebLayerImages.render(size: 64)
        try await WebServerTests.withServer(layers: layers, feed: feed) { server, port in
            feed.emit(TestStates.state(1))
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory())
            let page = try tools.openCollectingErrors("http://localhost:\(port)/")
            try tools.waitFor(page, "document.getElementById('status').className === 'live'")
            _ = try tools.evaluate(page, """
                window.failed = 0;
                for (let i = 0; i < 8; i++) {
                  const image = document.createElement('img');
                  image.onerror = () => { window.failed += 1; };
                  image.src = 'http://127.0.0.1:\(port)/events?' + i;
                  document.body.appendChild(image);
                }
                """)
            try tools.waitFor(page, "window.failed === 8")
            #expect(server.slots.count == 1, "only the page's own stream is open: \(server.slots.count)")
        }
    }
}
