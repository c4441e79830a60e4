import Controls
import Foundation
import Knob
import Logging
import Motion
import Testing
import TiltdTestSupport
@testable import Web

/// The page and `/tiltd.js` byte for byte as served (Tests/WebTests/Golden/Page):
/// filling the templates under Sources/Web/Page must not change a byte of
/// what browsers get; a deliberate change of the page is recorded with
/// RECORD_GOLDEN=1 and reviewed in the golden's diff.
@Suite(.timeLimit(.minutes(15))) struct WebPageGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/Page")

    /// `actual` against the golden `name`; with RECORD_GOLDEN=1
    /// it writes the golden instead (and fails, so a recording is never a pass).
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url, options: .atomic)
            Issue.record("recorded \(url.path): unset RECORD_GOLDEN and run again", sourceLocation: sourceLocation)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(Array(actual.utf8) == Array(golden.utf8),
                "\(name) differs from \(url.path) (first difference at byte \(Self.firstDifference(actual, golden)))",
                sourceLocation: sourceLocation)
    }

    static func firstDifference(_ a: String, _ b: String) -> Int {
        zip(a.utf8, b.utf8).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.utf8.count, b.utf8.count)
    }

    static func recorder() throws -> WebRingRecorder {
        WebRingRecorder(directory: try TestPaths.temporaryDirectory(), limitSeconds: 12.5, header: TraceHeader(),
                        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) { _ in }
    }

    @Test func thePlainPageIsTodaysBytes() throws {
        try Self.expectGolden(WebPage.html(layerSize: 240), "plain.html")
    }

    @Test func theInteractivePageWithEveryControlIsTodaysBytes() throws {
        let feed = WebStateFeed()
        let bar = WebLARSBar(layout: EQSliderLayout(widthPoints: 280), interactive: true, thumbs: [:])
        let controls = WebPageControls(recorder: try Self.recorder(),
                                       light: WebLightControl(initial: .white, interactive: true, feed: feed))
        try Self.expectGolden(WebPage.html(layerSize: 320, parts: [WebPage.larsBarPart(bar)], controls: controls),
                              "interactive.html")
    }

    @Test func theDisplayOnlyPageIsTodaysBytes() throws {
        let feed = WebStateFeed()
        let bar = WebLARSBar(layout: EQSliderLayout(widthPoints: 200, heightPoints: 40), interactive: false, thumbs: [:])
        let controls = WebPageControls(light: WebLightControl(initial: .white, interactive: false, feed: feed))
        try Self.expectGolden(WebPage.html(layerSize: 64, animator: KnobAnimator(durationSeconds: 0.25),
                                           parts: [WebPage.larsBarPart(bar)], controls: controls),
                              "display.html")
    }

    @Test func tiltdJSIsTodaysBytes() throws {
        try Self.expectGolden(WebTiltdScript.source, "tiltd.js")
    }
}
