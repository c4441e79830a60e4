import Motion
import Wording
#if canImport(Glibc)
import Glibc
#endif

/// A libiio operation that failed: what was attempted, on which device or
/// file, the errno, and what the user can do about it.
public struct IIOError: Error, Sendable, CustomStringConvertible {
    /// What tiltd was doing, e.g. "enabling the buffer".
    public var action: String
    /// The device, attribute or URI concerned, e.g. "iio:device0 (accel_3d)".
    public var target: String
    /// The error libiio or the kernel reported.
    public var errno: Errno
    /// What to do; when nil, the advice for `errno` is used.
    public var fixOverride: String?

    public init(_ action: String, on target: String, errno: Errno, fix: String? = nil) {
        self.action = action
        self.target = target
        self.errno = errno
        self.fixOverride = fix
    }

    /// The advice for this error.
    public var fix: String {
        if let fixOverride { return fixOverride }
        return IIOError.advice(for: errno)
    }

    /// What to do about an errno raised by an IIO operation.
    public static func advice(for errno: Errno) -> String {
        switch errno.code {
        case EACCES, EPERM:
            return "install udev/70-tiltd.rules (make install) and add yourself to group tiltd "
                + "(sudo usermod -aG tiltd $USER), then log in again"
        case EBUSY:
            return "another process (iio-sensor-proxy?) owns the buffer: stop it or use \(Setting.mode) poll"
        case ETIMEDOUT:
            return "the device sent no data in time: check its trigger and sampling_frequency, or use \(Setting.mode) poll"
        case ENODEV, ENOENT, ENXIO:
            return "the device is gone: reconnect it or check `tiltd list`"
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH:
            return "start iiod on that host (port 30431 unless given) or check the address"
        case EINVAL:
            return "the device refused the request: use \(Setting.mode) poll"
        default:
            return "check `tiltd list` and the kernel log (dmesg)"
        }
    }

    public var description: String {
        "\(action) on \(target) failed: \(errno): \(fix)"
    }
}
