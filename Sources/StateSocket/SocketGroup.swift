import Glibc
import Platform

/// The group a socket file is given, whose members may connect.
public enum SocketGroup {
    /// The id of group `name`, or nil when there is no such group.
    public static func id(named name: String) -> gid_t? {
        Posix.groupID(named: name)
    }

    /// `tiltd`'s id when this process is a member of that group (the
    /// installed unit runs as a dynamic user with `SupplementaryGroups=tiltd`),
    /// else nil: the file keeps the process's own group.
    public static func defaultID() -> gid_t? {
        guard let tiltd = Posix.groupID(named: "tiltd"), Posix.isMember(of: tiltd) else { return nil }
        return tiltd
    }
}
