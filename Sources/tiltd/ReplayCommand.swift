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
        // Streamed a block at a time: bounded memory for any input, and a
        // pipe is replayed as it arrives.
        let reader = try recording.open(file)
        var pipeline = TiltPipeline(configuration: pipeline.makeConfiguration())
        // Before the socket: its cleanup handler then passes SIGINT/SIGTERM on to this.
        let stop = realtime ? StopSignal() : nil
        let socket = try listen.startServer()
        defer { socket?.close() }
        let stdout = StdoutSink(flushEachLine: realtime)
        let sink: any StateSink = socket.map { BroadcastTee([stdout, $0]) } ?? stdout
        var reporter = ReplayDiagnosticReporter(file: file)
        var pace: RealtimePace?
        var samples = 0
        var gaps = 0
        var firstGap: TraceGap?
        while let block = try recording.next(reader) {
            samples += block.readings.count
            gaps += block.gaps.count
            firstGap = firstGap ?? block.gaps.first
            if let stop {
                let stopped = try await replayInRealTime(block.readings, pipeline: &pipeline, sink: sink,
                                                         reporter: &reporter, stop: stop, pace: &pace)
                if stopped { break }
            } else if socket == nil {
                // The common case, specialised for the concrete sink: no
                // existential call per state.
                replayAll(block.readings, pipeline: &pipeline, sink: stdout, reporter: &reporter)
            } else {
                replayAll(block.readings, pipeline: &pipeline, sink: sink, reporter: &reporter)
            }
        }
        sink.flush()
        if samples == 0, stop?.isRequested != true {
            StdoutSink.writeStandardError("tiltd: warning: \(file): the recording has no samples; nothing to replay")
        }
        if let firstGap {
            StdoutSink.writeStandardError("tiltd: note: \(file): \(Counted.text(gaps, "gap")) in the trace, the first at "
                + "\(PipelineDiagnostic.secondsText(firstGap.timestampNanoseconds)) s"
                + (firstGap.reason.isEmpty ? "" : " (\(firstGap.reason.escapingControls()))"))
        }
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

    /// The first reading's timestamp and when it was replayed.
    struct RealtimePace {
        var firstNanoseconds: Int64
        var start: ContinuousClock.Instant
    }

    /// Sleeps until each reading's time relative to the first (never for
    /// timestamps that go backwards) before processing it. SIGINT or SIGTERM
    /// ends it cleanly (exit 0, as `run` and `serve` do), saying so.
    ///
    /// - Returns: true when a signal stopped it.
    private func replayInRealTime(_ readings: [Reading], pipeline: inout TiltPipeline, sink: any StateSink,
                                  reporter: inout ReplayDiagnosticReporter, stop: StopSignal,
                                  pace: inout RealtimePace?) async throws -> Bool {
        for reading in readings {
            let origin = pace ?? RealtimePace(firstNanoseconds: reading.timestampNanoseconds, start: .now)
            pace = origin
            let offset = Nanoseconds.difference(reading.timestampNanoseconds, origin.firstNanoseconds)
            if offset > 0 || stop.isRequested,
               try await !stop.sleep(until: origin.start.advanced(by: .nanoseconds(offset))) {
                StdoutSink.writeStandardError("tiltd: \(stop.signalName): stopping")
                return true
            }
            if let tilt = pipeline.process(reading) { sink.emit(KnobState(tilt: tilt)) }
            if pipeline.hasDiagnostics { reporter.report(pipeline.takeDiagnostics()) }
        }
        return false
    }
}
