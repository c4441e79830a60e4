import Motion
#if canImport(Glibc)
import Glibc
#endif

/// A POSIX error number as libiio and libc report it, with its symbolic name.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    /// The positive errno value (libiio returns it negated).
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The symbolic name ("EACCES") for the codes tiltd explains, else the number.
    public var name: String {
        switch code {
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case EBUSY: return "EBUSY"
        case ETIMEDOUT: return "ETIMEDOUT"
        case ENODEV: return "ENODEV"
        case ENOENT: return "ENOENT"
        case ENXIO: return "ENXIO"
        case EINVAL: return "EINVAL"
        case EIO: return "EIO"
        case ECONNREFUSED: return "ECONNREFUSED"
        case EHOSTUNREACH: return "EHOSTUNREACH"
        case ENETUNREACH: return "ENETUNREACH"
        case ENOSYS: return "ENOSYS"
        case EAGAIN: return "EAGAIN"
        case ENOTSUP: return "ENOTSUP"
        case ENOTTY: return "ENOTTY"
        default: return "errno \(code)"
        }
    }

    /// libc's message followed by the symbolic name: "Permission denied (EACCES)".
    public var description: String {
        guard let message = strerror(code) else { return name }
        return "\(String(cString: message)) (\(name))"
    }

    /// True for the codes that mean the caller lacks permission.
    public var isPermission: Bool { code == EACCES || code == EPERM }

    /// True for the codes that mean the device (or a file of it) has gone.
    public var isGone: Bool { code == ENODEV || code == ENOENT || code == ENXIO }
}
