import Glibc
import Knob
import Motion
import Platform
import SamplePath

/// `tiltd render`: its options checked together (every refusal before any
/// file is touched), then the recording through the pipeline to states and
/// the frame loop under the command's lifecycle.
public struct RenderJob: Sendable {
    /// The recording, as named on the command line (for messages).
    public let file: String
    public let settings: RenderSettings
    public let overwrite: Bool
    /// `Setting.maxFrames` when given; otherwise one hour of frames at the rate.
    public let maxFrames: Int?

    /// The option values as given (nil where the user gave none); throws the
    /// first problem as one line naming the option.
    public init(file: String, format: RenderFormat?, out: String?, framesPerSecond: Int, size: Int?, style: KnobStyle?,
                background: String, light: LightColour, sliderValue: Double?, contactSheet: String?,
                contactSheetFrames: Int?, contactSheetColumns: Int?, maxFrames: Int?, overwrite: Bool, quiet: Bool,
                larsBar: Result<LARSBarRenderSettings?, RenderError>) throws(SettingError) {
        let format = format ?? Self.impliedFormat(out: out)
        let chosen: LARSBarRenderSettings?
        switch larsBar {
        case .success(let settings): chosen = settings
        case .failure(let problem): throw SettingError(problem.message)
        }
        if let size, !KnobGeometry.supportedSizes.contains(size) {
            throw SettingError("\(.size) must be 16…1024 pixels, got \(size)")
        }
        guard (1...1000).contains(framesPerSecond) else {
            throw SettingError("\(.fps) must be 1…1000 frames per second, got \(framesPerSecond)")
        }
        guard let backgroundColour = RGBA8(hex: background) else {
            throw SettingError("\(.background) must be six hex digits RRGGBB such as 131315, got '\(background)'")
        }
        if style == .tltilt, !light.isOpaqueWhite {
            throw SettingError("\(.lightColor) needs \(.style) mtz: TLTiltSlider's knob has no separate shine to colour")
        }
        if let sliderValue, !(0...1).contains(sliderValue) {
            throw SettingError("\(.slider) must be a value from 0 to 1, got \(sliderValue)")
        }
        if let problem = RenderTargets.optionProblem(contactSheet: contactSheet, cells: contactSheetFrames,
                                                     columns: contactSheetColumns, maxFrames: maxFrames,
                                                     overwrite: overwrite, format: format) {
            throw SettingError(problem)
        }
        switch format {
        case .png:
            guard let out, !out.isEmpty else { throw SettingError("\(.format) png needs \(.out) DIR for the frame files") }
        case .y4m:
            // The knob's frames are `size` high (and wide, without the slider);
            // the LARSBar slider checks its own width (`LARSBarRenderSettings`).
            if chosen == nil, let size, !size.isMultiple(of: 2) {
                let shape = sliderValue == nil ? "\(size) × \(size)" : "\(4 * size) × \(size)"
                throw SettingError("\(.size) \(size) makes frames of \(shape) pixels; y4m's 4:2:0 chroma needs even "
                    + "sides: give \(.size) \(size - 1) or \(size + 1) (or PNG frames)")
            }
            if out == nil || out == "-", Posix.isTerminal(STDOUT_FILENO) {
                throw SettingError("refusing to write a y4m stream to a terminal: pipe it (| ffmpeg -i - out.mp4) "
                    + "or give \(.out) FILE.y4m")
            }
        }
        self.file = file
        self.overwrite = overwrite
        self.maxFrames = maxFrames
        settings = RenderSettings(
            format: format, out: out, framesPerSecond: framesPerSecond, size: size ?? 256, style: style ?? .mtz,
            background: backgroundColour, light: light, sliderValue: sliderValue, contactSheet: contactSheet,
            contactSheetFrames: contactSheetFrames ?? 24, contactSheetColumns: contactSheetColumns, quiet: quiet,
            larsBar: chosen)
    }

    /// The format `Setting.out` implies when none is given: y4m for a `.y4m` file, PNG frames otherwise.
    public static func impliedFormat(out: String?) -> RenderFormat {
        (out ?? "").lowercased().hasSuffix(".y4m") ? .y4m : .png
    }

    /// The frame limit: `Setting.maxFrames`, or one hour of frames at `Setting.fps`.
    public var frameLimit: Int { maxFrames ?? 3600 * settings.framesPerSecond }

    /// Checks the output paths, loads the recording (`load`), runs it through
    /// the pipeline and renders its states under `lifecycle`, whose signals
    /// stop the loop after the frame being written. Progress and the summary
    /// go to stderr unless quiet.
    public func run(loading load: () throws -> Recording, pipeline: PipelineConfiguration,
                    under lifecycle: Lifecycle) async throws {
        let targets = try RenderTargets(format: settings.format, out: settings.out,
                                        contactSheet: settings.contactSheet, overwrite: overwrite)
        let loaded = try load()
        let collector = StateCollector(expectedCount: loaded.readings.count)
        var diagnosticsLogger = TiltdLog.logger
        if settings.quiet { diagnosticsLogger.logLevel = .error }
        let sampleRun = SampleRun(configuration: pipeline, sink: collector,
                                  reporter: DiagnosticReporter(subject: file, logger: diagnosticsLogger))
        sampleRun.process(loaded.readings)
        sampleRun.finish()
        let states = collector.states
        guard !states.isEmpty else {
            throw RenderError("\(file) has no readings to render; record some with tiltd record")
        }
        let made = try settings.makePainter(states: states)
        if let note = made.note, !settings.quiet { TiltdLog.logger.notice("\(note)") }
        let render = RenderRun(states: states, settings: settings, targets: targets, painter: made.painter)
        guard render.frameCount <= frameLimit else {
            throw RenderError(RenderTargets.tooManyFrames(file: file, frameCount: render.frameCount,
                                                          fps: settings.framesPerSecond, limit: frameLimit,
                                                          explicit: maxFrames != nil))
        }
        try await lifecycle.run([render])
        guard let outcome = render.outcome else { return }
        guard outcome.finished else {
            TiltdLog.logger.notice("\(outcome.stopNotice(signalName: lifecycle.stoppingSignalName, contactSheet: settings.contactSheet))")
            return
        }
        if !settings.quiet { TiltdLog.logger.notice("\(outcome.summary(settings: settings, stateCount: states.count))") }
    }
}
