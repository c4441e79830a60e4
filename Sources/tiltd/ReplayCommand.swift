import ArgumentParser
import Commands
import Daemon
import SamplePath

/// `tiltd replay FILE`: a recording through the pipeline to JSON Lines on stdout.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace or CSV recording as knob states (JSON Lines on stdout).",
        // <file> is required (run() says so when it is missing), though
        // optional to the parser (see `file`): the usage shows it required.
        usage: "tiltd replay [<options>] <file>",
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
    @OptionGroup var dsu: DSUOptions

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
        if let address = dsu.dsu, !realtime {
            throw ValidationError("--dsu \(address) serves motion as it happens: give --realtime too")
        }
    }

    func run() async throws {
        guard let file else {
            throw UsageError(Self.self, "missing <file>: give a tiltd trace, a CSV with header "
                + "time_s,accel_x,accel_y,accel_z, or - for standard input")
        }
        try listen.checkSocketPath()
        let replay = try ReplayRun(path: file, units: recording.units, gyroUnits: recording.gyroUnits,
                                   pipeline: pipeline.configuration(), pacedToTimestamps: realtime,
                                   listen: listen.settings())
        // Trapped before any file exists that a signal must clean up; a
        // plain replay keeps the default actions (Ctrl-C ends it at once).
        let lifecycle = realtime ? await Lifecycle.trappingSignals() : nil
        try await replay.run(under: lifecycle, dsu: dsu.dsu)
    }
}
