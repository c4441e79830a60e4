import ArgumentParser
import SamplePath
import StateSocket

/// `--listen unix:PATH` and `--socket-group`: serve the JSON Lines states on
/// a Unix socket as well as (or instead of) stdout. (`--on-demand`, which
/// only `run` can honour, is declared there.)
public struct ListenOptions: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("Also serve the JSON Lines states on a Unix stream socket (mode 0660) to any number of clients.",
                               valueName: "unix:PATH"),
            transform: { try ListenAddress(parsing: $0) })
    public var listen: ListenAddress?

    @Option(name: .customLong("socket-group"),
            help: ArgumentHelp("Group of the --listen socket file, whose members may connect. Default: "
                               + "tiltd when this process is a member of it, else the process's own group.",
                               valueName: "group"))
    var socketGroup: String?

    public init() {}

    public func validate() throws { _ = try settings() }

    /// The checked settings, or nil without `--listen`.
    public func settings() throws -> SocketListenSettings? {
        guard let listen else {
            if socketGroup != nil { throw ValidationError("--socket-group needs --listen unix:PATH") }
            return nil
        }
        return try validating { try SocketListenSettings(address: listen, groupName: socketGroup) }
    }

    /// Checks the socket file's place by `OutputPath`'s rule (its folder
    /// exists and takes new files), before anything is opened.
    ///
    /// - Throws: `OutputPathError` naming `--listen` and the path.
    public func checkSocketPath() throws {
        if let listen { try OutputPath.checkFile(listen.path, role: .socket, example: "tiltd.sock") }
    }

    /// Starts the socket server `--listen` asks for, or returns nil without `--listen`.
    func startServer(onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws -> UnixSocketServer? {
        try settings()?.startServer(onClientCountChange: onClientCountChange)
    }
}
