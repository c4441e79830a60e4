import ArgumentParser
import Commands
import Daemon
import Devices
import Motion
import SamplePath

/// `tiltd record`: raw samples and device metadata in the trace format,
/// replayable with `tiltd replay`.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record raw accelerometer samples and device metadata to a trace file.",
        discussion: """
            The trace (docs/trace-format.md) holds the device's name, label, URI, \
            scale, offset, mount matrix and its source, rate and mode, then one \
            line per sample (timestamp, m/s², raw counts) and a gap line where \
            the device was lost. Stops after --count samples, --duration seconds, \
            or on SIGINT/SIGTERM; every sample read is on disk when it exits.
            """)

    @OptionGroup var device: DeviceOptions

    @Option(help: ArgumentHelp("The trace file to write (replaced if it exists).", valueName: "file"))
    var out: String

    @Flag(name: .customLong("no-gyro"), help: "Record the accelerometer alone, even when it has a gyroscope.")
    var noGyro = false

    @OptionGroup var limits: RunLimitOptions

    func validate() throws {
        if limits.count != nil && limits.duration != nil {
            throw ValidationError("give --count or --duration, not both")
        }
    }

    func run() async throws {
        // Before the device is opened: a bad path fails at once, not after capture began.
        try OutputPath.checkFile(out, role: .output, example: "walk.trace")
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let run = DeviceRun(capture: try device.makeCaptureConfiguration(gyro: !noGyro), sampleRun: nil, tracePath: out,
                            count: limits.count, duration: limits.duration, version: Tiltd.version)
        try await lifecycle.runCommand([run])
        TiltdLog.logger.notice("recorded \(run.samplesRead) samples to \(out)")
    }
}
