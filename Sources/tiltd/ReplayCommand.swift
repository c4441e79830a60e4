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
    @Argument(help: ArgumentHelp("A tiltd trace or a CSV file; - reads standard input.", valueName: "file"))
    var file: String?

    func validate() throws {
        if let address = listen.listen, !realtime {
            throw ValidationError("--listen \(address.path) serves states as they happen: give --realtime too "
                + "(without it the replay is over before a client could connect)")
        }
    }

    func run() async throws {
        guard let file else {
            throw UsageError(Self.self, "missing <file>: give a tiltd trace, a CSV with header "
                + "time_s,accel_x,accel_y,accel_z, or - for standard input")
        }
        // Streamed a block at a time: bounded memory for any input, and a
        // pipe is replayed as it arrives.
        let reader = try recording.open(file)
        let tally = ReplayTally()
        let source = ReplaySource.blocks {
            guard let block = try recording.next(reader) else { return nil }
            tally.add(block)
            return block.readings
        }
        // Trapped before any file exists that a signal must clean up; a
        // plain replay keeps the default actions (Ctrl-C ends it at once).
        let lifecycle = realtime ? await Lifecycle.trappingSignals() : nil
        let socket = try listen.startServer()
        defer { socket?.close() }
        let stdout = StdoutSink(flushEachLine: realtime)
        let sink: any StateSink = socket.map { BroadcastTee([stdout, $0]) } ?? stdout
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: sink,
                                  reporter: DiagnosticReporter(subject: file))
        var stoppedEarly = false
        if let lifecycle {
            let replay = ReplayService(source: source, sampleRun: sampleRun, pacing: .realTime(loop: false))
            try await lifecycle.runCommand([socket, replay])
            stoppedEarly = replay.stoppedEarly
        } else {
            // Nothing to serve and nothing to wait for: no lifecycle needed.
            let next = source.makeBlocks()
            while let block = try next() { sampleRun.process(block) }
            sampleRun.finish()
        }
        tally.report(file: file, stoppedEarly: stoppedEarly)
    }
}
