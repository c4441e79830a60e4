import ArgumentParser
import Knob
import Motion
import Sensors

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
        let loaded = try recording.load(file)
        if loaded.readings.isEmpty {
            StdoutSink.writeStandardError("tiltd: warning: \(file): the recording has no samples; nothing to replay")
        }
        if let first = loaded.gaps.first {
            StdoutSink.writeStandardError("tiltd: note: \(file): \(Counted.text(loaded.gaps.count, "gap")) in the trace, the first at "
                + "\(PipelineDiagnostic.secondsText(first.timestampNanoseconds)) s"
                + (first.reason.isEmpty ? "" : " (\(first.reason.escapingControls()))"))
        }
        var pipeline = TiltPipeline(configuration: pipeline.makeConfiguration())
        // Before the socket: its cleanup handler then passes SIGINT/SIGTERM on to this.
        let stop = realtime ? StopSignal() : nil
        let socket = try listen.startServer()
        defer { socket?.close() }
        let stdout = StdoutSink(flushEachLine: realtime)
        let sink: any StateSink = socket.map { BroadcastTee([stdout, $0]) } ?? stdout
        var reporter = ReplayDiagnosticReporter(file: file)
        if realtime {
            try await replayInRealTime(loaded.readings, pipeline: &pipeline, sink: sink, reporter: &reporter, stop: stop!)
        } else if socket == nil {
            // The common case, specialised for the concrete sink: no
            // existential call per state.
            replayAll(loaded.readings, pipeline: &pipeline, sink: stdout, reporter: &reporter)
        } else {
            replayAll(loaded.readings, pipeline: &pipeline, sink: sink, reporter: &reporter)
        }
        sink.flush()
        reporter.finish(dropped: pipeline.droppedDiagnostics)
    }

    /// Every reading through the pipeline as fast as possible.
    private func replayAll<Sink: StateSink>(_ readings: [Reading], pipeline: inout TiltPipeline, sink: Sink,
                                            reporter: inout ReplayDiagnosticReporter) {
        for reading in readings {
            if let tilt = pipeline.process(reading) { sink.emit(KnobState(tilt: tilt)) }
            if pipeline.hasDiagnostics { reporter.report(pipeline.takeDiagnostics()) }
        }
    }

    /// Sleeps until each reading's time relative to the first (never for
    /// timestamps that go backwards) before processing it. SIGINT or SIGTERM
    /// ends it cleanly (exit 0, as `run` and `serve` do), saying so.
    private func replayInRealTime(_ readings: [Reading], pipeline: inout TiltPipeline, sink: any StateSink,
                                  reporter: inout ReplayDiagnosticReporter, stop: StopSignal) async throws {
        guard let first = readings.first else { return }
        let clock = ContinuousClock()
        let start = clock.now
        for reading in readings {
            let offset = Nanoseconds.difference(reading.timestampNanoseconds, first.timestampNanoseconds)
            if offset > 0 || stop.isRequested,
               try await !stop.sleep(until: start.advanced(by: .nanoseconds(offset))) {
                StdoutSink.writeStandardError("tiltd: \(stop.signalName): stopping")
                return
            }
            if let tilt = pipeline.process(reading) { sink.emit(KnobState(tilt: tilt)) }
            if pipeline.hasDiagnostics { reporter.report(pipeline.takeDiagnostics()) }
        }
    }
}
