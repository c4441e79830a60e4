import ArgumentParser
import Commands

/// `tiltd-run`: `tiltd run` alone, the executable `tiltd run` (and tiltd's
/// default command) execs when it is installed beside `tiltd`. It links only
/// the capture path (Commands and below: Daemon, SamplePath, StateSocket, Bus, Devices, System), so the daemon maps no
/// Foundation, HTTP stack, audio or PNG library.
///
/// The root is named `tiltd` and its one command is `run`, so usage, errors
/// and `--help` read exactly as `tiltd run`'s; arguments without the word
/// `run` first (`tiltd-run --listen …`, as tiltd's default command passes
/// them) are taken as `tiltd run`'s.
@main
struct TiltdRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltd",
        abstract: "tiltd's run command alone: knob states from an accelerometer as JSON Lines.",
        version: TiltdVersion.current,
        subcommands: [RunCommand.self])

    /// Errors read `tiltd: error: …`, as tiltd's own do.
    static var _errorPrefix: String { CommandMain.errorPrefix }

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first != "run" { arguments.insert("run", at: 0) }
        await CommandMain.run(Self.self, arguments: arguments)
    }
}
