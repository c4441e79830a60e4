import Motion
import StateSocket
import Wording

extension ListenAddress.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .notUnix: "expected unix:PATH, for example unix:/run/tiltd/tiltd.sock (only Unix sockets are served)"
        case .noPath: "expected a socket path after unix:, for example unix:/run/tiltd/tiltd.sock"
        case .pathTooLong(let path, let maximumBytes):
            "\(.listen) \(path): socket paths are limited to \(maximumBytes) bytes; choose a shorter path"
        }
    }
}

extension SocketListenSettings.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .noSuchGroup(let name):
            "\(.socketGroup) \(name): no such group; create it (see udev/tiltd.sysusers) or leave the option out"
        case .address(let invalid): invalid.message
        }
    }
}
