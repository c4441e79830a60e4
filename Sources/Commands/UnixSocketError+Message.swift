import Glibc
import Motion
import StateSocket
import Wording

extension UnixSocketError: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .inUse(let path):
            "\(path): another process is already serving states on this socket; stop it (systemctl stop tiltd?) "
                + "or choose another \(.listen) path"
        case .notASocket(let path): "\(path): exists and is not a socket; remove it or choose another \(.listen) path"
        case .pathTooLong(let path, let maximum):
            "\(path): socket paths are limited to \(maximum) bytes; choose a shorter \(.listen) path"
        case .foreignLockFile(let path, let owner):
            "\(path): the lock file belongs to uid \(owner), not to this user (uid \(geteuid())), or is not a regular "
                + "file: another user could hold it to keep tiltd from starting; remove it, or choose a \(.listen) path "
                + "in a directory only tiltd's user can write, such as $XDG_RUNTIME_DIR or /run/tiltd"
        case .eventLoop(let path, let reason): "\(path): cannot serve the socket: \(reason)"
        case .system(let error, let path):
            "\(path): \(error)" + (error.code == EACCES || error.code == EPERM
                ? "; check the directory's permissions or use a directory you can write, such as $XDG_RUNTIME_DIR"
                : error.code == ENOENT ? "; create the directory first" : "")
        }
    }
}
