import ArgumentParser
import Knob
import Motion
import Sensors
import Streaming

/// `tiltd replay FILE`: a recording through the pipeline to JSON Lines on stdout.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace or CSV recording as knob states (JSON Lines on stdout).",
        discussion: """
            Writes one JSON object per line for the first sample and for every later state \
            that passes the change gate: {"t":…,"roll":…,"pitch":…,"orientation":…,"shine":[…]} \
            (t in seconds as the file gives it, angles in radians). FILE is a tiltd trace \
            (docs/trace-format.md) or a CSV with header time_s,accel_x,accel_y,accel_z. \
            Warnings (a torn last line, timestamps going backwards, filter restarts after gaps) \
            go to stderr, each kind once.
            """)

    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var listen: ListenOptions

    @Flag(help: "Pace the output to the recording's timestamps, flushing every line.")
    var realtime = false

    // Optional for the parser so that a mistyped option is reported as such
    // rather than as a missing file: ArgumentParser reports a missing
    // argument, and runs validate(), before it looks at unknown options. So
    // the presence check is the first thing run() does.
    @Argument(help: ArgumentHelp("A tiltd trace or a CSV file.", valueName: "file"))
    var file: String?

    func validate() throws {
        if listen.onDemand { throw ValidationError("--on-demand opens a device while clients are connected; replay has none (use it with tiltd run)") }
    }

    func run() async throws {
        guard let file else {
            throw ValidationError("missing <file>: give a tiltd trace or a CSV with header time_s,accel_x,accel_y,accel_z")
        }
        let loaded = try recording.load(file)
        let logger = TiltdLog.logger
        if loaded.readings.isEmpty {
            logger.warning("\(file): the recording has no samples; nothing to replay")
        }
        if let first = loaded.gaps.first {
            let reason = first.reason.isEmpty ? "" : " (\(first.reason))"
            logger.notice("""
                note: \(file): \(loaded.gaps.count) gap(s) in the trace, the first at \
                \(PipelineDiagnostic.secondsText(first.timestampNanoseconds)) s\(reason)
                """)
        }
        // Trapped before any file exists that a signal must clean up; a
        // plain replay keeps the default actions (Ctrl-C ends it at once).
        let lifecycle = realtime || listen.listen != nil ? await Lifecycle.trappingSignals() : nil
        let socket = try listen.startServer()
        defer { socket?.close() }
        let stdout = StdoutSink(flushEachLine: realtime)
        let sink: any StateSink = socket.map { BroadcastTee([stdout, $0]) } ?? stdout
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: sink,
                                  reporter: DiagnosticReporter(subject: file))
        guard let lifecycle else {
            // Nothing to serve and nothing to wait for: no lifecycle needed.
            sampleRun.process(loaded.readings)
            sampleRun.finish()
            return
        }
        let replay = ReplayService(readings: loaded.readings, sampleRun: sampleRun,
                                   pacing: realtime ? .realTime(loop: false) : .asFastAsPossible)
        try await lifecycle.runCommand([socket, replay])
    }
}
