import ArgumentParser
import Motion
import Sensors
import Streaming
import TiltBus

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
    @OptionGroup var dbus: DBusOptions

    @Flag(name: .long, help: "Open the accelerometer only while at least one --listen client is connected.")
    var onDemand = false

    @Option(help: ArgumentHelp("Also record the raw samples and device metadata to this trace file.",
                               valueName: "file"))
    var record: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many samples read from the device.", valueName: "n"))
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds.", valueName: "s"))
    var duration: Double?

    func validate() throws {
        try DeviceRunLimits.validate(count: count, duration: duration)
        if onDemand && listen.listen == nil {
            throw ValidationError("--on-demand needs --listen unix:PATH: without socket clients the device would never open")
        }
        if let record, record.isEmpty { throw ValidationError("--record needs a file name") }
    }

    func run() async throws {
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let stdout = StdoutSink(flushEachLine: true)
        // --on-demand: the socket's client count opens and closes the device.
        // --dbus: so do D-Bus claims (DBusOptions.swift).
        let onDemand = self.onDemand || dbus.dbus != nil ? ListenOnDemand() : nil
        let demand = DemandCount { count in onDemand?.clientCountChanged(count) }
        let socketCounts = self.onDemand
        let socket = try listen.startServer { count in if socketCounts { demand.socketClients(count) } }
        defer { socket?.close() }
        let service = try dbus.startService(device: device) { count in demand.busClaims(count) }
        defer { service?.stop() }
        let sinks: [any StateSink] = [stdout] + (socket.map { [$0] } ?? []) + (service.map { [$0] } ?? [])
        let sink: any StateSink = sinks.count == 1 ? stdout : BroadcastTee(sinks)
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: sink,
                                  reporter: DiagnosticReporter(subject: nil))
        let run = DeviceRun(capture: device.makeCaptureConfiguration(gyro: !pipeline.noGyro), sampleRun: sampleRun,
                            tracePath: record, count: count, duration: duration,
                            openAtStart: onDemand == nil, version: Tiltd.version)
        onDemand?.attach(ListenOnDemand.Device(open: { try run.open() },
                                               close: { run.close(); socket?.forgetCurrentState() }))
        defer { onDemand?.release() }
        // Listed before the run, the socket and the bus service stop after
        // it: clients and claimants get the last states.
        try await lifecycle.runCommand([socket, service.map(TiltBusService.init), run])
    }
}
