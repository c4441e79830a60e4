import Glibc
import Motion
import Platform

/// Where `Setting.listen` serves the state stream. Only Unix stream sockets:
/// `unix:PATH`.
public struct ListenAddress: Equatable, Sendable {
    /// Filesystem path of the socket.
    public var path: String

    /// `sockaddr_un.sun_path` holds 108 bytes including the terminating NUL.
    public static let maximumPathBytes = Posix.maximumSocketPathBytes

    public init(path: String) {
        self.path = path
    }

    /// Parses `unix:PATH`.
    ///
    /// - Throws: `SettingError` saying what form is expected.
    public init(parsing argument: String) throws(SettingError) {
        guard argument.hasPrefix("unix:") else {
            throw SettingError("expected unix:PATH, for example unix:/run/tiltd/tiltd.sock (only Unix sockets are served)")
        }
        let path = String(argument.dropFirst("unix:".count))
        guard !path.isEmpty, !path.contains("\0") else {
            throw SettingError("expected a socket path after unix:, for example unix:/run/tiltd/tiltd.sock")
        }
        self.path = path
    }

    /// Checks that a socket can be made at `path`: short enough for
    /// `sun_path`. (Its folder is checked with every other output path,
    /// `OutputPath`, before anything opens.)
    ///
    /// - Throws: `SettingError` naming `Setting.listen` and what to change.
    public func checkPlace() throws(SettingError) {
        if path.utf8.count > Self.maximumPathBytes {
            throw SettingError("\(.listen) \(path): socket paths are limited to \(Self.maximumPathBytes) bytes; choose a shorter path")
        }
    }
}
