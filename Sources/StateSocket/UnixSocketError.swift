import Glibc
import Platform

/// Why the state socket could not be set up: what failed, on which path
/// (the command line words it, saying what to do).
public enum UnixSocketError: Error, Equatable, Sendable {
    /// Another process serves (or is just starting to serve) the path.
    case inUse(path: String)
    /// Something other than a socket sits at the path.
    case notASocket(path: String)
    /// The path does not fit in `sockaddr_un.sun_path`.
    case pathTooLong(path: String, maximumBytes: Int)
    /// A system call failed.
    case system(PosixError, path: String)
    /// The bound socket could not be handed to the event loop.
    case eventLoop(path: String, reason: String)
    /// The lock file is not a regular file of this user's: whoever made it
    /// could hold it to keep tiltd from starting.
    case foreignLockFile(path: String, owner: uid_t)
}
