import ArgumentParser
import Glibc
import Motion
import Platform
import SamplePath
import Wording

/// The main of both executables (`tiltd`, `tiltd-run`): ArgumentParser's
/// own, after installing tiltd's log format (`tiltd: …` on stderr, once)
/// and the options' names for settings in messages (`Setting.flag`),
/// plus the failures it would word badly. SIGPIPE is ignored first: a
/// reader that went away is an error the command reports and cleans up
/// after, never a silent death.
public enum CommandMain {
    /// What every error line starts with, usage errors and failures alike,
    /// as `TiltdLogHandler` writes errors: `tiltd: error: …`. Each root
    /// command gives it to ArgumentParser as its `_errorPrefix`.
    public static let errorPrefix = "tiltd: error: "

    /// Parses `arguments` (without the program's name) under `root` and runs
    /// the command they name. A `ReportedFailure` (already logged) exits 1
    /// with nothing more; a `UsageError` from a subcommand's `run()` is
    /// shown with that subcommand's usage, not the root's, and exits 64;
    /// every usage error is its one line and the usage (two lines).
    public static func run<Root: ParsableCommand>(_ root: Root.Type, arguments: [String]) async {
        Posix.ignoreBrokenPipes()
        TiltdLogHandler.bootstrap()
        SettingMessage.install { $0.flag }
        do {
            var command = try root.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch is ReportedFailure {
            Glibc.exit(ExitCode.failure.rawValue)
        } catch let error as UsageError {
            TiltdLogHandler.writeStandardError(error.text(root: root))
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch where root.exitCode(for: error) == .validationFailure {
            TiltdLogHandler.writeStandardError(withoutHelpLine(root.fullMessage(for: error)))
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch {
            root.exit(withError: error)
        }
    }

    /// ArgumentParser's text for a usage error without the `Help:` line it
    /// puts between the error and the usage for a bad value (the option's
    /// help, already in `--help`): the error line, then the usage.
    static func withoutHelpLine(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let help = lines.firstIndex(where: { $0.hasPrefix("Help:  ") }),
              let usage = lines[help...].firstIndex(where: { $0.hasPrefix("Usage: ") }) else { return text }
        lines.removeSubrange(help..<usage)
        return lines.joined(separator: "\n")
    }
}
