/// Which message bus to connect to.
public enum BusAddress: Sendable, Equatable, CustomStringConvertible {
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`):
    /// where desktops look for sensor services, and where the installed unit runs.
    case system
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`).
    case session
    /// An explicit address such as `unix:path=/tmp/bus` (private buses, tests).
    case address(String)

    /// `system` or `session` (the `Setting.dbus` argument); nil for anything else.
    public init?(argument: String) {
        switch argument {
        case "system": self = .system
        case "session": self = .session
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .system: "the system bus"
        case .session: "the session bus"
        case .address(let text): "the bus at \(text)"
        }
    }
}
