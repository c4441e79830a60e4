import ArgumentParser
import Glibc

/// A usage error found after parsing (in `run()`), printed like
/// ArgumentParser's own: the message, then the usage of the subcommand it
/// belongs to (not the root's `tiltd <subcommand>`), exit status 64.
struct UsageError: Error, CustomStringConvertible {
    var command: any ParsableCommand.Type
    var message: String
    var description: String { message }

    init(_ command: any ParsableCommand.Type, _ message: String) {
        self.command = command
        self.message = message
    }

    /// The whole text shown: error, usage, where to read more.
    var text: String {
        let name = command.configuration.commandName ?? ""
        return "Error: \(message)\nUsage: \(Tiltd.usageString(for: command))\n"
            + "  See 'tiltd \(name) --help' for more information."
    }

    /// A first argument that is neither an option nor a command: nil when it
    /// is fine, else the error naming it and the commands.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        let names = Tiltd.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !names.contains(first) else { return nil }
        return "Error: '\(first)' is not a tiltd command; the commands are \(names.joined(separator: ", "))\n"
            + "Usage: \(Tiltd.usageString())\n  See 'tiltd --help' for more information."
    }
}
