import ArgumentParser

/// A usage error found after parsing (in `run()`), printed like
/// ArgumentParser's own: the message, then the usage of the subcommand it
/// belongs to (not the root's `tiltd <subcommand>`), exit status 64.
public struct UsageError: Error, CustomStringConvertible {
    public var command: any ParsableCommand.Type
    public var message: String
    public var description: String { message }

    public init(_ command: any ParsableCommand.Type, _ message: String) {
        self.command = command
        self.message = message
    }

    /// The whole text shown: error, usage under `root`, where to read more.
    public func text<Root: ParsableCommand>(root: Root.Type) -> String {
        let name = command.configuration.commandName ?? ""
        return CommandMain.errorPrefix + "\(message)\nUsage: \(root.usageString(for: command))\n"
            + "  See 'tiltd \(name) --help' for more information."
    }
}
