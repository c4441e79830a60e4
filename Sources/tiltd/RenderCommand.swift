import ArgumentParser
import Commands
import Daemon
import Knob
import Motion
import Render
import SamplePath

/// `tiltd render FILE`: a recording through the pipeline and the knob
/// animation to frames (the knob, or the LARSBar slider with the knob as
/// its thumb): numbered PNGs, or a YUV4MPEG2 stream.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a trace or CSV recording as knob (or EQ slider) frames (PNG files or a y4m stream).",
        discussion: """
            Runs FILE through the pipeline (the same options as replay), animates the accepted \
            states as the original knob did (1/120 s ease-in-ease-out from what is on screen) and \
            samples the animation at --fps. PNG: writes DIR/frame-000000.png, frame-000001.png, … \
            (premultiplied RGBA written as straight-alpha PNG, the knob on a transparent frame). \
            y4m: a YUV4MPEG2 4:2:0 stream (BT.601 limited range, chroma centred: C420jpeg) of the \
            knob over --background, to stdout or --out FILE.y4m; e.g. \
            `tiltd render rec.trace --format y4m | ffmpeg -i - knob.mp4`. \
            --contact-sheet writes frames sampled across the whole trace into one PNG, each \
            labelled with its time and its roll and pitch in degrees. Every file is written under a \
            temporary name and renamed, and every output path is checked before the first frame. \
            A DIR holding frames of an earlier render is refused unless --overwrite, which removes \
            exactly those frame-NNNNNN.png files first. A render of more than --max-frames (default: \
            one hour at --fps) is refused before anything is written. SIGINT or SIGTERM stops after \
            the frame being written, says so and exits 0; only whole files are left. \
            --control larsbar draws the whole EQ volume slider instead (--width × 44 pt × --scale, \
            opaque): the knob as its thumb, its lights from --levels-file (WAV: levels per 1/144 s as \
            tiltd levels computes them; JSON Lines: {"t","left","right"}), t = 0 at the first frame, \
            each light fading over 0.1 s; after the file's last levels they are held.
            """)

    typealias Format = RenderFormat

    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var light: LightColourOptions

    @Argument(help: ArgumentHelp("A tiltd trace or a CSV file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "PNG: the directory for the frames (made if missing; its folder must exist). y4m: the output file (default: stdout).",
        valueName: "path"))
    var out: String?

    @Option(help: ArgumentHelp(
        "png (numbered files) or y4m (one stream); default png, or y4m when --out ends in .y4m.",
        valueName: "png|y4m"))
    var format: Format?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second (1…1000).", valueName: "n"))
    var fps = 60

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frame side in pixels (16…1024, default 256; even for y4m); the knob is 24/28 of it.", valueName: "px"))
    var size: Int?

    @Option(help: ArgumentHelp(
        "Knob style: mtz (brushed metal with two shines, composited; the default) or tltilt (TLTiltSlider's "
            + "per-frame redraw).", valueName: "mtz|tltilt"))
    var style: KnobStyle?

    @Option(help: ArgumentHelp("What to draw: the knob, or larsbar: the EQ volume slider, lights from --levels-file.",
                               valueName: "knob|larsbar"))
    var control: RenderControl = .knob

    @Option(name: .customLong("levels-file"), help: ArgumentHelp(
        "larsbar: the lights' levels, audio (FILE.wav) or levels JSON Lines (FILE.jsonl).", valueName: "file"))
    var levelsFile: String?

    @Option(help: ArgumentHelp("larsbar: the slider's value, 0…1 (default 0.5).", valueName: "v"))
    var value: Double?

    @Option(help: ArgumentHelp("larsbar: slider width in points, 20…2000 (default 280).", valueName: "pt"))
    var width: Double?

    @Option(help: ArgumentHelp("larsbar: device pixels per point, 1, 2 or 3 (default 2).", valueName: "s"))
    var scale: Int?

    /// The LARSBar slider these options ask for (nil: the knob), or why not.
    var larsBar: Result<LARSBarRenderSettings?, LARSBarRenderSettings.Invalid> {
        LARSBarRenderSettings.choose(control: control, levelsFile: levelsFile, value: value, widthPoints: width, scale: scale,
                                     knobSize: size, knobStyle: style, sliderValue: slider,
                                     format: format ?? RenderJob.impliedFormat(out: out))
    }

    @Option(help: ArgumentHelp(
        "Colour behind the knob in y4m frames and the contact sheet, RRGGBB (131315 is the "
            + "original screenshot's dark grey).", valueName: "RRGGBB"))
    var background = "131315"

    @Option(name: .customLong("contact-sheet"), help: ArgumentHelp(
        "Also write this PNG: frames sampled evenly across the trace in a grid.", valueName: "file.png"))
    var contactSheet: String?

    @Option(name: .customLong("contact-sheet-frames"), parsing: .unconditional, help: ArgumentHelp(
        "How many frames the contact sheet shows (default 24).", valueName: "n"))
    var contactSheetFrames: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Frames per row of the contact sheet (default: about as wide as it is tall).", valueName: "n"))
    var columns: Int?

    @Option(name: .customLong("max-frames"), parsing: .unconditional, help: ArgumentHelp(
        "Refuse, before writing anything, a render of more frames than this (default: one hour of "
            + "frames at --fps).", valueName: "n"))
    var maxFrames: Int?

    @Flag(help: "Replace the frame-NNNNNN.png files an earlier render left in --out (only those are removed).")
    var overwrite = false

    // Unconditional: "-0.5" is a value to be refused by validate(), not an option.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Draw the whole slider at this value (0…1): the knob over its track, filled left of it and "
            + "empty right; frames are 4 × --size wide.", valueName: "value"))
    var slider: Double?

    @Flag(name: .customLong("quiet"), help: "No progress or summary on stderr.")
    var quiet = false

    /// Every option checked together; `validate()` and `run()` both make it.
    func job() throws -> RenderJob {
        try validating {
            try RenderJob(file: file, format: format, out: out, framesPerSecond: fps, size: size, style: style,
                          background: background, light: light.colour, sliderValue: slider, contactSheet: contactSheet,
                          contactSheetFrames: contactSheetFrames, contactSheetColumns: columns, maxFrames: maxFrames,
                          overwrite: overwrite, quiet: quiet, larsBar: larsBar)
        }
    }

    func validate() throws { _ = try job() }

    func run() async throws {
        let job = try job()
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        try await job.run(loading: { try recording.load(file) }, pipeline: pipeline.configuration(),
                          under: lifecycle)
    }
}

extension KnobStyle: ExpressibleByArgument {}

extension RenderFormat: ExpressibleByArgument {}

extension RenderControl: ExpressibleByArgument {}
