import Glibc
import Knob
import Logging

/// Serves the JSON Lines state stream on a Unix stream socket
/// (`--listen unix:PATH`).
///
/// The socket file is created mode 0660 (owner and group; with a `group`,
/// that group, e.g. `tiltd` under the installed unit's dynamic user). A socket file left by a crashed process
/// (connecting is refused) is replaced; one a live process still serves is
/// not taken over. The file is removed by `close()` and on SIGINT/SIGTERM
/// (see `UnixSocketCleanup`), and only while it is still this process's
/// socket. Fan-out, coalescing and client handling are `StateBroadcaster`'s.
final class UnixSocketServer: StateSink, @unchecked Sendable {
    // Safe to share: all stored properties are immutable except `closed`,
    // which only `close()` touches, and the broadcaster is itself Sendable.

    /// The socket's filesystem path.
    let path: String
    private let socket: Int32
    private let broadcaster: StateBroadcaster
    private let device: UInt64
    private let inode: UInt64
    private let cleanupSlot: Int?
    private var closed = false

    /// Binds `path`, replacing a stale socket file, and starts serving.
    ///
    /// - Parameters:
    ///   - path: where to create the socket.
    ///   - group: the group to give the socket file (nil: the process's).
    ///   - limits: client limits, see `StateBroadcaster.Limits`.
    ///   - logger: for connects, disconnects and refusals.
    ///   - onClientCountChange: called with the number of clients whenever it
    ///     changes, on the broadcaster's thread (drives `--on-demand`).
    /// - Throws: `UnixSocketError` when the path is served by a live process,
    ///   is not a socket, is too long, or a system call fails.
    init(path: String, group: gid_t? = nil, limits: StateBroadcaster.Limits = .init(),
         logger: Logger = Logger(label: "tiltd.socket"),
         onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        guard path.utf8.count <= ListenAddress.maximumPathBytes else {
            throw UnixSocketError.pathTooLong(path: path, maximumBytes: ListenAddress.maximumPathBytes)
        }
        self.path = path
        try Self.clearStaleSocket(at: path, logger: logger)

        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError.system(call: "socket", path: path, errno: errno) }
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if bound != 0 {
            let code = errno
            Glibc.close(fd)
            // Another process bound it between our check and bind.
            if code == EADDRINUSE { throw UnixSocketError.inUse(path: path) }
            throw UnixSocketError.system(call: "bind", path: path, errno: code)
        }
        var info = stat()
        // connect(2) on a Unix socket needs write permission: 0660 admits the
        // owner and the group only, whatever the umask left.
        guard chmod(path, 0o660) == 0, group.map({ chown(path, uid_t.max, $0) == 0 }) ?? true,
              lstat(path, &info) == 0, listen(fd, 64) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw UnixSocketError.system(call: "chmod/chown/listen", path: path, errno: code)
        }
        let device = UInt64(info.st_dev), inode = UInt64(info.st_ino)
        let cleanupSlot = UnixSocketCleanup.remember(path: path, device: device, inode: inode)
        self.socket = fd
        self.device = device
        self.inode = inode
        self.cleanupSlot = cleanupSlot
        do {
            self.broadcaster = try StateBroadcaster(listeningSocket: fd, limits: limits, logger: logger,
                                                    onClientCountChange: onClientCountChange)
        } catch {
            Glibc.close(fd)
            _ = path.withCString { UnixSocketCleanup.removeIfOurs($0, device: device, inode: inode) }
            if let cleanupSlot { UnixSocketCleanup.forget(slot: cleanupSlot) }
            throw error
        }
        logger.info("serving states on unix:\(path)")
    }

    /// The number of connected clients.
    var clientCount: Int { broadcaster.clientCount }

    func emit(_ state: KnobState) {
        broadcaster.emit(state)
    }

    /// New clients wait for the next state instead of getting the last one.
    func forgetCurrentState() {
        broadcaster.forgetCurrentState()
    }

    /// Disconnects every client, closes the socket and removes its file.
    /// Idempotent; call it once the producer has stopped.
    func close() {
        guard !closed else { return }
        closed = true
        broadcaster.stop()
        Glibc.close(socket)
        if let cleanupSlot { UnixSocketCleanup.forget(slot: cleanupSlot) }
        _ = path.withCString { UnixSocketCleanup.removeIfOurs($0, device: device, inode: inode) }
    }

    /// Removes a socket file nobody serves any more; refuses to touch a live
    /// socket or anything that is not a socket.
    private static func clearStaleSocket(at path: String, logger: Logger) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw UnixSocketError.notASocket(path: path) }
        let probe = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw UnixSocketError.system(call: "socket", path: path, errno: errno) }
        defer { Glibc.close(probe) }
        var address = Self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 { throw UnixSocketError.inUse(path: path) }
        let code = errno
        // ECONNREFUSED: a socket file with no listener, left by a crash.
        guard code == ECONNREFUSED else { throw UnixSocketError.system(call: "connect (probing the existing socket)", path: path, errno: code) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw UnixSocketError.system(call: "unlink (stale socket)", path: path, errno: errno)
        }
        logger.notice("replaced stale socket file \(path) left by an earlier run")
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        return address
    }
}
