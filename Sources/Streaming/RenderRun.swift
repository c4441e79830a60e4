import Foundation
import Knob
import Motion
import ServiceLifecycle
import Synchronization

/// What `tiltd render` draws and where: every choice of the command line,
/// already validated by it.
public struct RenderSettings: Sendable {
    public var format: RenderFormat
    /// PNG: the frame directory; y4m: the file (nil or "-": stdout).
    public var out: String?
    public var framesPerSecond: Int
    /// Frame height in pixels (and width, without `sliderValue`).
    public var size: Int
    public var style: KnobStyle
    /// Behind the knob in y4m frames and the contact sheet.
    public var background: RGBA8
    public var light: LightColour
    /// Draw the whole slider at this value (0…1); frames are then 4 × `size` wide.
    public var sliderValue: Double?
    public var contactSheet: String?
    public var contactSheetFrames: Int
    public var contactSheetColumns: Int?
    /// No progress on stderr.
    public var quiet: Bool

    public init(format: RenderFormat, out: String?, framesPerSecond: Int, size: Int, style: KnobStyle,
                background: RGBA8, light: LightColour, sliderValue: Double?, contactSheet: String?,
                contactSheetFrames: Int, contactSheetColumns: Int?, quiet: Bool) {
        self.format = format
        self.out = out
        self.framesPerSecond = framesPerSecond
        self.size = size
        self.style = style
        self.background = background
        self.light = light
        self.sliderValue = sliderValue
        self.contactSheet = contactSheet
        self.contactSheetFrames = contactSheetFrames
        self.contactSheetColumns = contactSheetColumns
        self.quiet = quiet
    }

    /// Frame width in pixels.
    public var frameWidth: Int { sliderValue == nil ? size : 4 * size }
}

/// How a render ended.
public struct RenderOutcome: Sendable, Equatable {
    public var framesWritten: Int
    public var frameCount: Int
    /// False when a shutdown (a signal) stopped it between two frames.
    public var finished: Bool
    /// One phrase saying where the frames are.
    public var whereToLook: String
}

/// The frame loop of `tiltd render`, as a service of the lifecycle: the
/// accepted states animated as the knob did, sampled at the frame rate,
/// drawn and written one frame at a time, then the contact sheet.
///
/// A shutdown (SIGINT, SIGTERM) is checked between frames: the frame being
/// written is finished, the stream closed, and the run ends with only whole
/// files on disk (no contact sheet, which needs every frame).
public final class RenderRun: Service, Sendable {
    private let states: [KnobState]
    private let settings: RenderSettings
    private let targets: RenderTargets
    private let stopRequested = Atomic<Bool>(false)
    private let result = Mutex<RenderOutcome?>(nil)

    /// - Parameters:
    ///   - states: the accepted states, oldest first (at least one).
    ///   - targets: the checked output paths (and earlier frames to remove).
    public init(states: [KnobState], settings: RenderSettings, targets: RenderTargets) {
        self.states = states
        self.settings = settings
        self.targets = targets
    }

    /// The number of frames the whole render makes.
    public var frameCount: Int { FrameSampler(states: states, framesPerSecond: settings.framesPerSecond).frameCount }

    /// How the run ended (nil before it has).
    public var outcome: RenderOutcome? { result.withLock { $0 } }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try render()
        } onGracefulShutdown: {
            self.stopRequested.store(true, ordering: .releasing)
        }
    }

    private var shouldStop: Bool { stopRequested.load(ordering: .acquiring) || Task.isCancelled }

    private func render() throws {
        let s = settings
        let sampler = FrameSampler(states: states, framesPerSecond: s.framesPerSecond)
        try targets.removeStaleFrames()
        var knob = KnobRenderer(size: s.size, style: s.style)
        var sliderRenderer = s.sliderValue.map { _ in SliderRenderer(width: 4 * s.size, frameSize: s.size, style: s.style) }
        // Two frames used in turn: the y4m writer keeps the previous frame
        // to skip unchanged blocks, so drawing into the other one avoids a
        // copy-on-write of the one it holds.
        var frame = RGBAImage(width: s.frameWidth, height: s.size), spare = frame
        let output = try RenderOutput(format: s.format, out: s.out, width: s.frameWidth, height: s.size,
                                      fps: s.framesPerSecond, background: s.background)
        let picks = ContactSheet.sampleIndices(frameCount: sampler.frameCount, cells: s.contactSheetFrames)
        var sheet = s.contactSheet.map { _ in
            ContactSheet(cellWidth: s.frameWidth, cellHeight: s.size, cells: picks.count, columns: s.contactSheetColumns,
                         background: s.background, labelLines: 2, labelCharacters: 12)
        }
        var nextPick = 0
        var progress = RenderProgress(total: sampler.frameCount, enabled: !s.quiet)
        var written = 0
        do {
            try sampler.forEachFrame { f in
                if shouldStop { throw RenderStop() }
                if let value = s.sliderValue {
                    sliderRenderer!.render(value: value, shines: f.shines, tilt: f.latest.tilt, light: s.light,
                                           into: &frame)
                } else {
                    knob.render(shines: f.shines, tilt: f.latest.tilt, light: s.light, into: &frame)
                }
                try output.write(frame, index: f.index)
                written = f.index + 1
                if sheet != nil, nextPick < picks.count, picks[nextPick] == f.index {
                    sheet!.place(frame, inCell: nextPick)
                    sheet!.label(ContactSheet.labelText(
                        secondsSinceStart: Double(f.index) / Double(s.framesPerSecond), rollRadians: f.latest.tilt.roll,
                        pitchRadians: f.latest.tilt.pitch), inCell: nextPick)
                    nextPick += 1
                }
                progress.advance(to: f.index + 1)
                swap(&frame, &spare)
            }
        } catch is RenderStop {}
        try output.finish()
        progress.finish()
        let finished = written == sampler.frameCount
        if finished, let path = s.contactSheet, let sheet {
            do {
                try RenderTargets.createParent(of: path, option: "--contact-sheet")
                try PNGWriter.write(sheet.image, to: path, fast: false)
            } catch {
                throw RenderError("\(error)")
            }
        }
        result.withLock {
            $0 = RenderOutcome(framesWritten: written, frameCount: sampler.frameCount, finished: finished,
                               whereToLook: output.whereToLook)
        }
    }
}

/// Thrown out of the frame loop when a shutdown was asked for.
private struct RenderStop: Error {}
