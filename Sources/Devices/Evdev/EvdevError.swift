#if canImport(Glibc)
import Glibc
#endif

/// An evdev motion sensor that cannot be opened or read: what failed, on
/// which node, the errno and what to do.
public struct EvdevError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What tiltd was doing, e.g. "opening".
    public var action: String
    /// The node (and name, when known), e.g. "/dev/input/event5 (… Motion Sensors)".
    public var target: String
    public var errno: Errno

    public init(_ action: String, on target: String, errno: Errno) {
        self.action = action
        self.target = target
        self.errno = errno
    }

    /// True when the pad went away (unplugged, Bluetooth sleep).
    public var isGone: Bool { errno.isGone }

    /// What to do about it.
    public var fix: String {
        switch errno.code {
        case EACCES, EPERM:
            return "event nodes are readable by root and group input only; install udev/70-tiltd.rules "
                + "(make install), which gives group tiltd read access to motion-sensor nodes "
                + "(ID_INPUT_ACCELEROMETER=1) and never to keyboards, and add yourself to group tiltd "
                + "(sudo usermod -aG tiltd $USER), then log in again"
        case ENODEV, ENOENT, ENXIO:
            return "the pad is gone (unplugged or asleep): reconnect it or check `tiltd list`"
        case ENOTTY:
            return "it is not an evdev node: pass a /dev/input/eventN that `tiltd list` shows"
        case EINVAL:
            return "the node refused a request (an ioctl it does not answer): check `tiltd list`"
        default:
            return "check `tiltd list` and the kernel log (dmesg)"
        }
    }

    public var description: String {
        "\(action) \(target) failed: \(errno): \(fix)"
    }
}
