import Glibc
import Motion

/// `Setting.listen` `unix:PATH` with `Setting.socketGroup`, checked: where the state
/// socket is served and which group may connect.
public struct SocketListenSettings: Equatable, Sendable {
    public var address: ListenAddress
    /// The socket file's group; nil keeps the default (`SocketGroup.defaultID`).
    public var groupID: gid_t?

    /// Checks the group and the socket's place.
    ///
    /// - Parameter groupName: `Setting.socketGroup`; nil: `tiltd` when this
    ///   process is a member of it, else the process's own group.
    /// - Throws: `SettingError` naming the option.
    public init(address: ListenAddress, groupName: String? = nil) throws(SettingError) {
        if let groupName {
            guard let id = SocketGroup.id(named: groupName) else {
                throw SettingError("\(.socketGroup) \(groupName): no such group; create it (see udev/tiltd.sysusers) "
                    + "or leave the option out")
            }
            groupID = id
        } else {
            groupID = SocketGroup.defaultID()
        }
        try address.checkPlace()
        self.address = address
    }

    /// Starts the socket server.
    ///
    /// - Parameter onClientCountChange: see `UnixSocketServer`.
    /// - Throws: `UnixSocketError` (a live socket, a non-socket file, …).
    public func startServer(onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws -> UnixSocketServer {
        try UnixSocketServer(path: address.path, group: groupID, onClientCountChange: onClientCountChange)
    }
}
