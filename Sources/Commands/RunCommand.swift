import ArgumentParser
import Daemon
import SamplePath

/// `tiltd run` (the default command): a real accelerometer → the Motion
/// pipeline → JSON Lines states on stdout, one flushed line per state.
public struct RunCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
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
    @OptionGroup var dsu: DSUOptions

    @Flag(name: .long, help: "Open the accelerometer only while at least one --listen or --dsu client is connected.")
    var onDemand = false

    @Option(help: ArgumentHelp("Also record the raw samples and device metadata to this trace file.",
                               valueName: "file"))
    var record: String?

    @OptionGroup var limits: RunLimitOptions

    public init() {}

    public func validate() throws {
        if onDemand && listen.listen == nil && dsu.dsu == nil {
            throw ValidationError("--on-demand needs --listen unix:PATH: without socket clients the device would never open")
        }
    }

    public func run() async throws {
        // Every output path before the device is opened.
        if let record { try OutputPath.checkFile(record, role: .recording, example: "walk.trace") }
        try listen.checkSocketPath()
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let stream: DeviceStateStream
        do {
            stream = try DeviceStateStream(.init(
                capture: device.makeCaptureConfiguration(gyro: !pipeline.noGyro), pipeline: pipeline.configuration(),
                tracePath: record, count: limits.count, durationSeconds: limits.duration, listen: listen.settings(),
                openWhileSocketClients: onDemand, bus: dbus.dbus, dsu: dsu.dsu, version: TiltdVersion.current))
        } catch let error as DeviceStateStream.BusUnavailable {
            TiltdLog.logger.error("--dbus: \(error)")
            throw ExitCode.failure
        }
        defer { stream.close() }
        try await stream.run(under: lifecycle)
    }
}
