import ArgumentParser
import Commands
import Glibc
import Platform

/// The tiltd command line: parses arguments and wires Motion and Knob stages
/// together. Each subcommand lives in its own file.
@main
struct Tiltd: AsyncParsableCommand {
    static let version = TiltdVersion.current

    static let configuration = CommandConfiguration(
        commandName: "tiltd",
        abstract: "Tilt-reactive brushed-metal knob states from a Linux accelerometer.",
        discussion: """
            tiltd reads an accelerometer through the Industrial I/O subsystem \
            (libiio), low-pass filters it, derives roll and pitch, gates small \
            changes and turns the attitude into the two shine layers of the \
            iOS 6 Music.app / MTZTiltReflectionSlider knob. States stream as \
            JSON Lines; recordings can be replayed and rendered to frames. \
            Emulators (Cemu, Dolphin, …) read the motion from `tiltd run --dsu 26760` \
            as a DSU server 127.0.0.1:26760 (docs/dsu.md).
            """,
        version: version,
        subcommands: [RunCommand.self, ListCommand.self, RecordCommand.self,
                      ReplayCommand.self, RenderCommand.self, ServeCommand.self, DrawCommand.self,
                      LevelsCommand.self, MonitorCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Errors read `tiltd: error: …` as the log's do, not ArgumentParser's `Error: …`.
    static var _errorPrefix: String { CommandMain.errorPrefix }

    /// `tiltd run` (or the default command) becomes `tiltd-run` when it
    /// sits beside this executable (`RunExecutable`); everything else runs
    /// here, through ArgumentParser's main (`CommandMain`), after one usage
    /// error it words badly: an unknown first word (it would blame `run`,
    /// the default command).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        RunExecutable.replaceProcessIfRun(arguments)
        if let unknown = unknownCommand(arguments) {
            TiltdLogHandler.writeStandardError(unknown)
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        await CommandMain.run(Self.self, arguments: arguments)
    }

    /// A first argument that is neither an option nor a command: nil when it
    /// is fine, else the error naming it and the commands.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.contains(first) else { return nil }
        return CommandMain.errorPrefix + "'\(first)' is not a tiltd command; the commands are \(names.joined(separator: ", "))\n"
            + "Usage: \(usageString())\n  See 'tiltd --help' for more information."
    }
}
