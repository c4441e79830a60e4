import ArgumentParser
import Foundation

/// `--listen unix:PATH` and `--on-demand`: serve the JSON Lines states on a
/// Unix socket as well as (or instead of) stdout.
struct ListenOptions: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("Also serve the JSON Lines states on a Unix stream socket (mode 0660) to any number of clients.",
                               valueName: "unix:PATH"),
            transform: { try ListenAddress(parsing: $0) })
    var listen: ListenAddress?

    @Flag(name: .long,
          help: "Open the accelerometer only while at least one --listen client is connected.")
    var onDemand = false

    func validate() throws {
        if onDemand && listen == nil {
            throw ValidationError("--on-demand needs --listen unix:PATH: without socket clients the device would never open")
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
        return try UnixSocketServer(path: listen.path, onClientCountChange: onClientCountChange)
    }
}
