import ArgumentParser
import Foundation
import Glibc
import Streaming

/// `--listen unix:PATH` and `--socket-group`: serve the JSON Lines states on
/// a Unix socket as well as (or instead of) stdout. (`--on-demand`, which
/// only `run` can honour, is declared there.)
struct ListenOptions: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("Also serve the JSON Lines states on a Unix stream socket (mode 0660) to any number of clients.",
                               valueName: "unix:PATH"),
            transform: { try ListenAddress(parsing: $0) })
    var listen: ListenAddress?

    @Option(name: .customLong("socket-group"),
            help: ArgumentHelp("Group of the --listen socket file, whose members may connect. Default: "
                               + "tiltd when this process is a member of it, else the process's own group.",
                               valueName: "group"))
    var socketGroup: String?

    func validate() throws {
        if let socketGroup {
            guard listen != nil else { throw ValidationError("--socket-group needs --listen unix:PATH") }
            guard SocketGroup.id(named: socketGroup) != nil else {
                throw ValidationError("--socket-group \(socketGroup): no such group; create it (see udev/tiltd.sysusers) or leave the option out")
            }
        }
        guard let listen else { return }
        if listen.path.utf8.count > ListenAddress.maximumPathBytes {
            throw ValidationError("--listen \(listen.path): socket paths are limited to \(ListenAddress.maximumPathBytes) bytes; choose a shorter path")
        }
        let directory = URL(fileURLWithPath: listen.path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw ValidationError("--listen \(listen.path): directory \(directory) does not exist; create it first")
        }
    }
}

extension ListenOptions {
    /// Starts the socket server `--listen` asks for, or returns nil without
    /// `--listen`.
    ///
    /// - Parameter onClientCountChange: see `UnixSocketServer`.
    /// - Throws: `UnixSocketError` (a live socket, a non-socket file, …).
    func startServer(onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws -> UnixSocketServer? {
        guard let listen else { return nil }
        return try UnixSocketServer(path: listen.path, group: socketGroupID(),
                                    onClientCountChange: onClientCountChange)
    }

    /// `--socket-group`'s id; by default `tiltd`'s when this process is in
    /// that group (the installed unit runs as a dynamic user whose own group
    /// nobody else is in), else nil.
    func socketGroupID() -> gid_t? {
        if let socketGroup { return SocketGroup.id(named: socketGroup) }
        return SocketGroup.defaultID()
    }
}
