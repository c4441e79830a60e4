import Foundation
import Images
import Knob
import Motion
import Render
import SamplePath
import Testing
import TiltdTestSupport

/// The render frame loop in process: a whole render's files, and a render
/// stopped part-way leaving only whole frames.
@Suite(.timeLimit(.minutes(2))) struct RenderRunTests {
    /// `count` states 5 ms apart (TestStates), spanning `count` × 5 ms.
    static func states(_ count: Int) -> [KnobState] { (0..<count).map(TestStates.state) }

    static func settings(_ format: RenderFormat, out: String, contactSheet: String? = nil) -> RenderSettings {
        RenderSettings(format: format, out: out, framesPerSecond: 100, size: 16, style: .mtz,
                       background: RGBA8(hex: "131315")!, light: .white, sliderValue: nil,
                       contactSheet: contactSheet, contactSheetFrames: 4, contactSheetColumns: nil, quiet: true)
    }

    @Test func aWholeRenderWritesEveryFrameAndTheContactSheet() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let settings = Self.settings(.png, out: dir + "/frames", contactSheet: dir + "/sheet.png")
        let targets = try RenderTargets(format: .png, out: settings.out, contactSheet: settings.contactSheet,
                                        overwrite: false)
        let run = RenderRun(states: Self.states(40), settings: settings, targets: targets)
        try await Lifecycle.withoutSignals.run([run])
        let outcome = try #require(run.outcome)
        #expect(outcome.finished && outcome.framesWritten == run.frameCount && outcome.frameCount == run.frameCount)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").sorted()
        #expect(names.count == run.frameCount && names.allSatisfy(RenderTargets.isFrameName))
        let frame = try PNGReader.read(path: dir + "/frames/" + names[0])
        #expect(frame.width == 16 && frame.height == 16)
        #expect(FileManager.default.fileExists(atPath: dir + "/sheet.png"))
    }

    @Test func aStoppedRenderLeavesWholeFramesAndNoContactSheet() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 100,000 states span 500 s: 50,000 frames, far more than are drawn
        // before the cancellation below lands.
        let settings = Self.settings(.y4m, out: dir + "/knob.y4m", contactSheet: dir + "/sheet.png")
        let targets = try RenderTargets(format: .y4m, out: settings.out, contactSheet: settings.contactSheet,
                                        overwrite: false)
        let run = RenderRun(states: Self.states(100_000), settings: settings, targets: targets)
        let task = Task { try await run.run() }
        task.cancel()
        try await task.value
        let outcome = try #require(run.outcome)
        #expect(!outcome.finished && outcome.framesWritten < outcome.frameCount)
        let writer = Y4MWriter(width: 16, height: 16, framesPerSecond: 100, background: RGBA8(hex: "131315")!)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir + "/knob.y4m")[.size] as? Int)
        #expect(size == writer.header.count + outcome.framesWritten * writer.frameByteCount)
        #expect(!FileManager.default.fileExists(atPath: dir + "/sheet.png"))
    }
}
