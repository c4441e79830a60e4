import ArgumentParser
import Streaming

/// Where `--listen` serves the state stream. Only Unix stream sockets:
/// `unix:PATH`.
struct ListenAddress: Equatable, Sendable {
    /// Filesystem path of the socket.
    var path: String

    /// `sockaddr_un.sun_path` holds 108 bytes including the terminating NUL.
    static let maximumPathBytes = UnixSocketServer.maximumPathBytes

    init(path: String) {
        self.path = path
    }

    /// Parses `unix:PATH`.
    ///
    /// - Throws: `ValidationError` saying what form is expected.
    init(parsing argument: String) throws {
        guard argument.hasPrefix("unix:") else {
            throw ValidationError("expected unix:PATH, for example unix:/run/tiltd/tiltd.sock (only Unix sockets are served)")
        }
        let path = String(argument.dropFirst("unix:".count))
        guard !path.isEmpty, !path.contains("\0") else {
            throw ValidationError("expected a socket path after unix:, for example unix:/run/tiltd/tiltd.sock")
        }
        self.path = path
    }
}
