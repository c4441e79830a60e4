import ArgumentParser
import Motion
import Sensors
import Streaming

/// `tiltd run` (the default command): a real accelerometer → the Motion
/// pipeline → JSON Lines states on stdout, one flushed line per state.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Stream knob states from an accelerometer as JSON Lines (the default command).",
        discussion: """
            Reads the display accelerometer through libiio (buffered when it can, \
            else polled, saying why once on stderr), filters it, derives roll and \
            pitch, gates changes too small to see and prints one JSON line per \
            state: {"t":…,"roll":…,"pitch":…,"orientation":…,"shine":[…]}. \
            A device that fails or vanishes is reported and reopened when it \
            returns. SIGINT and SIGTERM stop cleanly (buffer disabled, trace \
            closed, exit 0). See docs/devices.md.
            """)

    @OptionGroup var device: DeviceOptions
    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var listen: ListenOptions

    @Option(help: ArgumentHelp("Also record the raw samples and device metadata to this trace file.",
                               valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Stop after this many samples read from the device.", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "s"))
    var duration: Double?

    func validate() throws {
        try DeviceRunLimits.validate(count: count, duration: duration)
        if let record, record.isEmpty { throw ValidationError("--record needs a file name") }
    }

    func run() async throws {
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let stdout = StdoutSink(flushEachLine: true)
        // --on-demand: the socket's client count opens and closes the device.
        let onDemand = listen.onDemand ? ListenOnDemand() : nil
        let socket = try listen.startServer { count in onDemand?.clientCountChanged(count) }
        defer { socket?.close() }
        let sink: any StateSink = socket.map { BroadcastTee([stdout, $0]) } ?? stdout
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: sink,
                                  reporter: DiagnosticReporter(subject: nil))
        let run = DeviceRun(capture: device.makeCaptureConfiguration(), sampleRun: sampleRun,
                            tracePath: record, count: count, duration: duration,
                            openAtStart: onDemand == nil, version: Tiltd.version)
        onDemand?.attach(ListenOnDemand.Device(open: { try run.open() },
                                               close: { run.close(); socket?.forgetCurrentState() }))
        defer { onDemand?.release() }
        // Listed before the run, the socket stops after it: clients get the last states.
        try await lifecycle.runCommand([socket, run])
    }
}
