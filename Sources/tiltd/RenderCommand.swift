import ArgumentParser
import Foundation
import Knob
import Motion
import Sensors
import Streaming

/// `tiltd render FILE`: a recording through the pipeline and the knob
/// animation to frames: numbered PNGs, or a YUV4MPEG2 stream.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a trace or CSV recording as knob frames (PNG files or a y4m stream).",
        discussion: """
            Runs FILE through the pipeline (the same options as replay), animates the accepted \
            states as the original knob did (1/120 s ease-in-ease-out from what is on screen) and \
            samples the animation at --fps. PNG: writes DIR/frame-000000.png, frame-000001.png, … \
            (premultiplied RGBA written as straight-alpha PNG, the knob on a transparent frame). \
            y4m: a YUV4MPEG2 4:2:0 stream (BT.601 limited range, chroma centred: C420jpeg) of the \
            knob over --background, to stdout or --out FILE.y4m; e.g. \
            `tiltd render rec.trace --format y4m | ffmpeg -i - knob.mp4`. \
            --contact-sheet writes frames sampled across the whole trace into one PNG.
            """)

    typealias Format = RenderFormat

    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var recording: RecordingOptions

    @Argument(help: ArgumentHelp("A tiltd trace or a CSV file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "PNG: the directory for the frames (created if missing). y4m: the output file (default: stdout).",
        valueName: "path"))
    var out: String?

    @Option(help: ArgumentHelp(
        "png (numbered files) or y4m (one stream); default png, or y4m when --out ends in .y4m.",
        valueName: "png|y4m"))
    var format: Format?

    /// The format asked for, or implied by an `--out` ending in `.y4m`.
    var effectiveFormat: Format {
        format ?? ((out ?? "").lowercased().hasSuffix(".y4m") ? .y4m : .png)
    }

    @Option(help: ArgumentHelp("Frames per second (1…1000).", valueName: "n"))
    var fps = 60

    @Option(help: ArgumentHelp("Frame side in pixels (16…1024); the knob is 24/28 of it.", valueName: "px"))
    var size = 256

    @Option(help: ArgumentHelp(
        "Knob style: mtz (brushed metal with two shines, composited) or tltilt (TLTiltSlider's "
            + "per-frame redraw).", valueName: "mtz|tltilt"))
    var style: KnobStyle = .mtz

    @Option(help: ArgumentHelp(
        "Colour behind the knob in y4m frames and the contact sheet, RRGGBB; the default is the "
            + "original screenshot's dark grey.", valueName: "RRGGBB"))
    var background = "131315"

    @Option(name: .customLong("contact-sheet"), help: ArgumentHelp(
        "Also write this PNG: frames sampled evenly across the trace in a grid.", valueName: "file.png"))
    var contactSheet: String?

    @Option(name: .customLong("contact-sheet-frames"), help: ArgumentHelp(
        "How many frames the contact sheet shows.", valueName: "n"))
    var contactSheetFrames = 24

    @Option(help: ArgumentHelp(
        "Draw the whole slider at this value (0…1): the knob over its track, filled left of it and "
            + "empty right; frames are 4 × --size wide.", valueName: "value"))
    var slider: Double?

    @Flag(name: .customLong("quiet"), help: "No progress or summary on stderr.")
    var quiet = false

    func validate() throws {
        guard KnobGeometry.supportedSizes.contains(size) else {
            throw ValidationError("--size must be 16…1024 pixels, got \(size)")
        }
        guard (1...1000).contains(fps) else {
            throw ValidationError("--fps must be 1…1000 frames per second, got \(fps)")
        }
        guard RGBA8(hex: background) != nil else {
            throw ValidationError("--background must be six hex digits RRGGBB such as 131315, got '\(background)'")
        }
        if let slider, !(0...1).contains(slider) {
            throw ValidationError("--slider must be a value from 0 to 1, got \(slider)")
        }
        guard (1...400).contains(contactSheetFrames) else {
            throw ValidationError("--contact-sheet-frames must be 1…400, got \(contactSheetFrames)")
        }
        switch effectiveFormat {
        case .png:
            guard let out, !out.isEmpty else {
                throw ValidationError("--format png needs --out DIR for the frame files")
            }
        case .y4m:
            if out == nil || out == "-", isatty(STDOUT_FILENO) != 0 {
                throw ValidationError("refusing to write a y4m stream to a terminal: pipe it (| ffmpeg -i - out.mp4) or give --out FILE.y4m")
            }
        }
    }

    func run() async throws {
        let loaded = try recording.load(file)
        let collector = StateCollector(expectedCount: loaded.readings.count)
        var diagnosticsLogger = TiltdLog.logger
        if quiet { diagnosticsLogger.logLevel = .error }
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: collector,
                                  reporter: DiagnosticReporter(subject: file, logger: diagnosticsLogger))
        sampleRun.process(loaded.readings)
        sampleRun.finish()
        let states = collector.states
        guard !states.isEmpty else {
            throw RenderError("\(file) has no readings to render; record some with tiltd record")
        }
        let sampler = FrameSampler(states: states, framesPerSecond: fps)
        let backgroundColour = RGBA8(hex: background)!
        var knob = KnobRenderer(size: size, style: style)
        var sliderRenderer = slider.map { _ in SliderRenderer(width: 4 * size, frameSize: size, style: style) }
        let frameWidth = slider == nil ? size : 4 * size
        // Two frames used in turn: the y4m writer keeps the previous frame
        // to skip unchanged blocks, so drawing into the other one avoids a
        // copy-on-write of the one it holds.
        var frame = RGBAImage(width: frameWidth, height: size), spare = frame
        let output = try RenderOutput(format: effectiveFormat, out: out, width: frameWidth, height: size, fps: fps,
                                      background: backgroundColour)
        let picks = ContactSheet.sampleIndices(frameCount: sampler.frameCount, cells: contactSheetFrames)
        var sheet = contactSheet.map { _ in
            ContactSheet(cellWidth: frameWidth, cellHeight: size, cells: picks.count, background: backgroundColour)
        }
        var nextPick = 0
        var progress = RenderProgress(total: sampler.frameCount, enabled: !quiet)

        try sampler.forEachFrame { f in
            if let value = slider {
                sliderRenderer!.render(value: value, shines: f.shines, tilt: f.latest.tilt, into: &frame)
            } else {
                knob.render(shines: f.shines, tilt: f.latest.tilt, into: &frame)
            }
            try output.write(frame, index: f.index)
            if sheet != nil, nextPick < picks.count, picks[nextPick] == f.index {
                sheet!.place(frame, inCell: nextPick)
                nextPick += 1
            }
            progress.advance(to: f.index + 1)
            swap(&frame, &spare)
        }
        try output.finish()
        progress.finish()
        if let contactSheet, let sheet {
            do { try PNGWriter.write(sheet.image, to: contactSheet, fast: false) } catch {
                throw RenderError("\(error)")
            }
        }
        if !quiet {
            let seconds = Double(sampler.frameCount) / Double(fps)
            var summary = "rendered \(sampler.frameCount) frames (\(frameWidth)×\(size), \(fps) fps, "
                + String(format: "%.1f s", seconds) + ", \(style.rawValue) style) from \(states.count) states; "
                + output.whereToLook
            if let contactSheet { summary += "; contact sheet: \(contactSheet)" }
            TiltdLog.logger.notice("\(summary)")
        }
    }
}

extension KnobStyle: ExpressibleByArgument {}

extension RenderFormat: ExpressibleByArgument {}
