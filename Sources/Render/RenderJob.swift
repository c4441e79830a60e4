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
    /// The frame limit when given; otherwise one hour of frames at the rate.
    public let maxFrames: Int?

    /// Values that do not make a render.
    public enum Invalid: Error, Sendable, Equatable {
        /// The LARSBar slider's inputs (`LARSBarRenderSettings.choose`).
        case larsBar(LARSBarRenderSettings.Invalid)
        /// A knob size the geometry does not draw.
        case size(Int)
        /// A frame rate outside 1…1000.
        case framesPerSecond(Int)
        /// A background that is not six hex digits.
        case background(String)
        /// A light colour for TLTiltSlider's knob, which has no separate shine.
        case lightColourWithoutShine
        /// A slider value outside 0…1.
        case sliderValue(Double)
        /// Contact sheet, frame limit and overwrite settings.
        case targets(RenderTargets.OptionProblem)
        /// PNG frames without a directory for them.
        case pngWithoutDirectory
        /// y4m frames with an odd side (`size` makes frames `width × height`).
        case oddSizeForY4M(size: Int, width: Int, height: Int)
        /// A y4m stream to standard output, which is a terminal.
        case y4mToTerminal
    }

    /// The values as given (nil where none was given); throws the first
    /// problem.
    public init(file: String, format: RenderFormat?, out: String?, framesPerSecond: Int, size: Int?, style: KnobStyle?,
                background: String, light: LightColour, sliderValue: Double?, contactSheet: String?,
                contactSheetFrames: Int?, contactSheetColumns: Int?, maxFrames: Int?, overwrite: Bool, quiet: Bool,
                larsBar: Result<LARSBarRenderSettings?, LARSBarRenderSettings.Invalid>) throws(Invalid) {
        let format = format ?? Self.impliedFormat(out: out)
        let chosen: LARSBarRenderSettings?
        switch larsBar {
        case .success(let settings): chosen = settings
        case .failure(let problem): throw .larsBar(problem)
        }
        if let size, !KnobGeometry.supportedSizes.contains(size) { throw .size(size) }
        guard (1...1000).contains(framesPerSecond) else { throw .framesPerSecond(framesPerSecond) }
        guard let backgroundColour = RGBA8(hex: background) else { throw .background(background) }
        if style == .tltilt, !light.isOpaqueWhite { throw .lightColourWithoutShine }
        if let sliderValue, !(0...1).contains(sliderValue) { throw .sliderValue(sliderValue) }
        if let problem = RenderTargets.optionProblem(contactSheet: contactSheet, cells: contactSheetFrames,
                                                     columns: contactSheetColumns, maxFrames: maxFrames,
                                                     overwrite: overwrite, format: format) {
            throw .targets(problem)
        }
        switch format {
        case .png:
            guard let out, !out.isEmpty else { throw .pngWithoutDirectory }
        case .y4m:
            // The knob's frames are `size` high (and wide, without the slider);
            // the LARSBar slider checks its own width (`LARSBarRenderSettings`).
            if chosen == nil, let size, !size.isMultiple(of: 2) {
                throw .oddSizeForY4M(size: size, width: sliderValue == nil ? size : 4 * size, height: size)
            }
            if out == nil || out == "-", Posix.isTerminal(STDOUT_FILENO) { throw .y4mToTerminal }
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

    /// The format the output path implies when none is given: y4m for a `.y4m` file, PNG frames otherwise.
    public static func impliedFormat(out: String?) -> RenderFormat {
        (out ?? "").lowercased().hasSuffix(".y4m") ? .y4m : .png
    }

    /// The frame limit: `maxFrames`, or one hour of frames at the rate.
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
            throw RenderError.noReadings(file: file)
        }
        let made = try settings.makePainter(states: states)
        if let note = made.note, !settings.quiet { TiltdLog.logger.notice("\(note)") }
        let render = RenderRun(states: states, settings: settings, targets: targets, painter: made.painter)
        guard render.frameCount <= frameLimit else {
            throw RenderError.tooManyFrames(file: file, frameCount: render.frameCount, fps: settings.framesPerSecond,
                                            limit: frameLimit, explicit: maxFrames != nil)
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
