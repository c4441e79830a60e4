import ArgumentParser
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
                      ReplayCommand.self, RenderCommand.self, ServeCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// Installs tiltd's log format (`tiltd: …` on stderr), once, then parses
    /// and runs the command as ArgumentParser's own `main` does.
    static func main() async {
        TiltdLogHandler.bootstrap()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
