import Glibc
import Platform

/// Where the state stream is served. Only Unix stream sockets: `unix:PATH`.
public struct ListenAddress: Equatable, Sendable {
    /// An address or a socket place that cannot be served.
    public enum Invalid: Error, Sendable, Equatable {
        /// The text does not start `unix:` (only Unix sockets are served).
        case notUnix
        /// `unix:` without a path (or a path with a NUL byte).
        case noPath
        /// The path is longer than `sun_path` holds.
        case pathTooLong(path: String, maximumBytes: Int)
    }

    /// Filesystem path of the socket.
    public var path: String

    /// `sockaddr_un.sun_path` holds 108 bytes including the terminating NUL.
    public static let maximumPathBytes = Posix.maximumSocketPathBytes

    public init(path: String) {
        self.path = path
    }

    /// Parses `unix:PATH`.
    ///
    /// - Throws: `Invalid.notUnix` or `Invalid.noPath`.
    public init(parsing argument: String) throws(Invalid) {
        guard argument.hasPrefix("unix:") else { throw .notUnix }
        let path = String(argument.dropFirst("unix:".count))
        guard !path.isEmpty, !path.contains("\0") else { throw .noPath }
        self.path = path
    }

    /// Checks that a socket can be made at `path`: short enough for
    /// `sun_path`. (Its folder is checked with every other output path,
    /// `OutputPath`, before anything opens.)
    ///
    /// - Throws: `Invalid.pathTooLong`.
    public func checkPlace() throws(Invalid) {
        if path.utf8.count > Self.maximumPathBytes {
            throw .pathTooLong(path: path, maximumBytes: Self.maximumPathBytes)
        }
    }
}
