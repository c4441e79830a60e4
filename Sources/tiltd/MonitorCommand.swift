import ArgumentParser
import Streaming
import TiltBus

/// `tiltd monitor`: iio-sensor-proxy's `monitor-sensor` for net.tiltd.Tilt,
/// with the continuous values.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Watch the net.tiltd.Tilt D-Bus service and print each change as a line.",
        discussion: """
            Claims net.tiltd.Tilt (started by `tiltd run --dbus system|session`), \
            prints its values when it appears and one line per PropertiesChanged, \
            waits and claims again when the service restarts, and exits 0 on \
            SIGINT or SIGTERM. See docs/dbus.md.
            """)

    @Flag(name: .customLong("system"), help: "Watch the system bus (the default).")
    var system = false

    @Flag(name: .customLong("session"), help: "Watch the session bus.")
    var session = false

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    func validate() throws {
        if system && session { throw ValidationError("--system and --session exclude each other; pick one bus") }
    }

    func run() async throws {
        let lifecycle = await Lifecycle.trappingSignals()
        do {
            let stdout = StdoutSink.FailureWatch()
            let monitor = try TiltMonitor(bus: session ? .session : .system, format: json ? .json : .text,
                                          write: { StdoutSink.writeLine($0).map(stdout.report) }, report: { TiltdLog.log($0) })
            try await lifecycle.runCommand([stdout, TiltMonitorService(monitor)])
        } catch let error as TiltBusError {
            TiltdLog.logger.error("\(error)")
            throw ExitCode.failure
        }
    }
}
