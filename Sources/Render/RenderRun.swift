import Foundation
import Images
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
    /// The knob's frame side in pixels: the frame height (and width, without
    /// `sliderValue`); the LARSBar slider's frames have their own size.
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

    /// Draw the whole LARSBar slider instead of the knob (nil: the knob).
    public var larsBar: LARSBarRenderSettings?

    public init(format: RenderFormat, out: String?, framesPerSecond: Int, size: Int, style: KnobStyle,
                background: RGBA8, light: LightColour, sliderValue: Double?, contactSheet: String?,
                contactSheetFrames: Int, contactSheetColumns: Int?, quiet: Bool, larsBar: LARSBarRenderSettings? = nil) {
        self.larsBar = larsBar
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

    /// The knob's frames as these settings ask for them (the knob alone, or on its track).
    public var knobPainter: KnobFramePainter {
        KnobFramePainter(size: size, style: style, light: light, sliderValue: sliderValue)
    }

    /// The frames' painter for a render of `states`: the knob, or the
    /// LARSBar slider with its level file loaded, and then a note when the
    /// levels end before the last frame.
    /// - Throws: `RenderError` naming the level file (and line) and what to do.
    public func makePainter(states: [KnobState]) throws -> (painter: any FramePainter, note: String?) {
        guard let larsBar else { return (knobPainter, nil) }
        let frameCount = FrameSampler(states: states, framesPerSecond: framesPerSecond).frameCount
        let made = try larsBar.makePainter(light: light, lastFrameSeconds: Double(frameCount - 1) / Double(framesPerSecond))
        return (made.painter, made.note)
    }
}

/// The frame loop of `tiltd render`, as a service of the lifecycle: the
/// accepted states animated as the knob did, sampled at the frame rate,
/// drawn by a `FramePainter` (the knob, or a control with the knob as its
/// thumb) and written one frame at a time, then the contact sheet.
///
/// A shutdown (SIGINT, SIGTERM) is checked between frames: the frame being
/// written is finished, the stream closed, and the run ends with only whole
/// files on disk (no contact sheet, which needs every frame).
public final class RenderRun: Service, Sendable {
    private let states: [KnobState]
    private let settings: RenderSettings
    private let targets: RenderTargets
    private let painter: any FramePainter
    private let stopRequested = Atomic<Bool>(false)
    private let result = Mutex<RenderOutcome?>(nil)

    /// - Parameters:
    ///   - states: the accepted states, oldest first (at least one).
    ///   - targets: the checked output paths (and earlier frames to remove).
    ///   - painter: what each frame shows (default: the knob as `settings` say).
    public init(states: [KnobState], settings: RenderSettings, targets: RenderTargets,
                painter: (any FramePainter)? = nil) {
        self.states = states
        self.settings = settings
        self.targets = targets
        self.painter = painter ?? settings.knobPainter
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
        var painter = self.painter
        let width = painter.frameWidth, height = painter.frameHeight
        // Two frames used in turn: the y4m writer keeps the previous frame
        // to skip unchanged blocks, so drawing into the other one avoids a
        // copy-on-write of the one it holds.
        var frame = RGBAImage(width: width, height: height), spare = frame
        let output = try RenderOutput(format: s.format, out: s.out, width: width, height: height,
                                      fps: s.framesPerSecond, background: s.background)
        let picks = ContactSheet.sampleIndices(frameCount: sampler.frameCount, cells: s.contactSheetFrames)
        var sheet = s.contactSheet.map { _ in
            ContactSheet(cellWidth: width, cellHeight: height, cells: picks.count, columns: s.contactSheetColumns,
                         background: s.background, labelLines: 2, labelCharacters: 12)
        }
        var nextPick = 0
        var progress = RenderProgress(total: sampler.frameCount, enabled: !s.quiet)
        var written = 0
        do {
            try sampler.forEachFrame { f in
                if shouldStop { throw RenderStop() }
                let seconds = Double(f.index) / Double(s.framesPerSecond)
                painter.paint(f, atSeconds: seconds, into: &frame)
                precondition(frame.width == width && frame.height == height, "a painter changed the frame size")
                try output.write(frame, index: f.index)
                written = f.index + 1
                if sheet != nil, nextPick < picks.count, picks[nextPick] == f.index {
                    sheet!.place(frame, inCell: nextPick)
                    sheet!.label(ContactSheet.labelText(
                        secondsSinceStart: seconds, rollRadians: f.latest.tilt.roll,
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
                try PNGWriter.write(sheet.image, to: path, fast: false)
            } catch {
                throw RenderError.cannotWritePNG(reason: "\(error)")
            }
        }
        result.withLock {
            $0 = RenderOutcome(framesWritten: written, frameCount: sampler.frameCount, finished: finished,
                               whereToLook: output.whereToLook, frameWidth: width, frameHeight: height)
        }
    }
}

/// Thrown out of the frame loop when a shutdown was asked for.
private struct RenderStop: Error {}
