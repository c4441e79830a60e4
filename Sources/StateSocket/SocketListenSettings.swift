import Glibc
import Platform

/// A `unix:PATH` address with the socket file's group, checked: where the
/// state socket is served and which group may connect.
public struct SocketListenSettings: Equatable, Sendable {
    /// Settings that cannot be served.
    public enum Invalid: Error, Sendable, Equatable {
        /// The group named for the socket file does not exist.
        case noSuchGroup(String)
        /// The address cannot be served (`ListenAddress.checkPlace()`).
        case address(ListenAddress.Invalid)
    }

    public var address: ListenAddress
    /// The socket file's group; nil keeps the process's own.
    public var groupID: gid_t?

    /// Checks the group and the socket's place.
    ///
    /// - Parameter groupName: the socket file's group; nil: `tiltd` when this
    ///   process is a member of it, else the process's own group.
    /// - Throws: `Invalid` saying which part cannot be served.
    public init(address: ListenAddress, groupName: String? = nil) throws(Invalid) {
        if let groupName {
            guard let id = Posix.groupID(named: groupName) else { throw .noSuchGroup(groupName) }
            groupID = id
        } else if let tiltd = Posix.groupID(named: "tiltd"), Posix.isMember(of: tiltd) {
            // The installed unit runs as a dynamic user with `SupplementaryGroups=tiltd`.
            groupID = tiltd
        } else {
            groupID = nil
        }
        do { try address.checkPlace() } catch { throw .address(error) }
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
