/// Why talking to D-Bus failed; each message is one line saying what to do.
public enum TiltBusError: Error, Equatable, CustomStringConvertible {
    /// No connection could be made to the bus.
    case busUnavailable(bus: String, reason: String)
    /// No session bus: `DBUS_SESSION_BUS_ADDRESS` is unset and sd-bus's
    /// fallback, `$XDG_RUNTIME_DIR/bus`, failed (or that variable is unset too).
    case sessionAddressUnset(runtimeDirectory: String?, reason: String)
    /// Another connection owns the name already.
    case nameTaken(name: String, bus: String)
    /// The bus's policy does not let this user own the name.
    case nameRefused(name: String, bus: String)
    /// The bus connection was closed (the bus daemon stopped).
    case disconnected(bus: String)
    /// A method call was answered with an error.
    case callFailed(member: String, destination: String, reason: String)
    /// Any other sd-bus failure.
    case busFailed(bus: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .busUnavailable(let bus, let reason):
            "cannot connect to \(bus): \(reason); start a D-Bus daemon or choose the other bus"
        case .sessionAddressUnset(let runtimeDirectory, let reason):
            "cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not set, and "
                + (runtimeDirectory.map { "there is no bus at \($0)/bus (\(reason))" }
                    ?? "neither is XDG_RUNTIME_DIR (\(reason))")
                + "; run tiltd inside your desktop session, export DBUS_SESSION_BUS_ADDRESS "
                + "(e.g. unix:path=/run/user/$(id -u)/bus), or give it a bus of its own with dbus-run-session -- tiltd …"
        case .nameTaken(let name, let bus):
            "\(name) is already owned on \(bus): stop the other tiltd first"
        case .nameRefused(let name, let bus):
            "\(bus) does not let this user own \(name): install dbus/net.tiltd.Tilt.conf "
                + "(make install) and run as user tiltd"
        case .disconnected(let bus):
            "lost the connection to \(bus)"
        case .callFailed(let member, let destination, let reason):
            "\(destination) answered \(member) with an error: \(reason)"
        case .busFailed(let bus, let operation, let reason):
            "\(operation) on \(bus) failed: \(reason)"
        }
    }
}
