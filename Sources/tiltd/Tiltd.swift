import ArgumentParser
import Glibc
import Streaming

/// The tiltd command line: parses arguments and wires Motion and Knob stages
/// together. Each subcommand lives in its own file.
@main
struct Tiltd: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tiltd",
        abstract: "Tilt-reactive brushed-metal knob states from a Linux accelerometer.",
        discussion: """
            tiltd reads an accelerometer through the Industrial I/O subsystem \
            (libiio), low-pass filters it, derives roll and pitch, gates small \
            changes and turns the attitude into the two shine layers of the \
            iOS 6 Music.app / MTZTiltReflectionSlider knob. States stream as \
            JSON Lines; recordings can be replayed and rendered to frames.
            """,
        version: version,
        subcommands: [RunCommand.self, ListCommand.self, RecordCommand.self,
                      ReplayCommand.self, RenderCommand.self, ServeCommand.self, DrawCommand.self,
                      LevelsCommand.self, MonitorCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's own main, after installing tiltd's log format
    /// (`tiltd: …` on stderr, once), plus two usage errors it words badly: an
    /// unknown first word (it would blame `run`, the default command) and a
    /// `UsageError` from a subcommand's `run()` (shown with that
    /// subcommand's usage, not the root's).
    static func main() async {
        TiltdLogHandler.bootstrap()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = UsageError.unknownCommand(arguments) {
            TiltdLogHandler.writeStandardError(unknown)
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch is ReportedFailure {
            // Already logged by the library that failed: exit 1, nothing more.
            Glibc.exit(ExitCode.failure.rawValue)
        } catch let error as UsageError {
            TiltdLogHandler.writeStandardError(error.text)
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
