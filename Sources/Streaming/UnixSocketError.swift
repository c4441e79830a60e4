import Glibc
import Motion

/// Why the state socket could not be set up, worded for the person running
/// tiltd: what failed, on which path, and what to do.
public enum UnixSocketError: Error, CustomStringConvertible, Equatable, Sendable {
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

    public var description: String {
        switch self {
        case .inUse(let path):
            return "\(path): another process is already serving states on this socket; stop it (systemctl stop tiltd?) or choose another \(Setting.listen) path"
        case .notASocket(let path):
            return "\(path): exists and is not a socket; remove it or choose another \(Setting.listen) path"
        case .pathTooLong(let path, let maximum):
            return "\(path): socket paths are limited to \(maximum) bytes; choose a shorter \(Setting.listen) path"
        case .foreignLockFile(let path, let owner):
            return "\(path): the lock file belongs to uid \(owner), not to this user (uid \(geteuid())), or is not a regular file: another user could hold it to keep tiltd from starting; remove it, or choose a \(Setting.listen) path in a directory only tiltd's user can write, such as $XDG_RUNTIME_DIR or /run/tiltd"
        case .eventLoop(let path, let reason):
            return "\(path): cannot serve the socket: \(reason)"
        case .system(let error, let path):
            var advice = ""
            if error.code == EACCES || error.code == EPERM {
                advice = "; check the directory's permissions or use a directory you can write, such as $XDG_RUNTIME_DIR"
            } else if error.code == ENOENT {
                advice = "; create the directory first"
            }
            return "\(path): \(error)\(advice)"
        }
    }
}
