import Motion
import Wording

/// Why `tiltd serve` could not serve, worded for the person running it.
public enum WebServerError: Error, CustomStringConvertible, Equatable {
    /// `Setting.host` is not an IPv4 or IPv6 literal.
    case badHost(String)
    /// Binding or listening failed (address in use, permission…).
    case cannotListen(host: String, port: UInt16, reason: String)

    public var description: String { message.description }

    /// The message, naming the settings to change.
    public var message: SettingMessage {
        switch self {
        case .badHost(let host):
            return "\(.host) \(host): not an IP address; use 127.0.0.1 (default), ::1, or 0.0.0.0 to serve every interface"
        case .cannotListen(let host, let port, let reason):
            return "cannot serve on \(host):\(port): \(reason); choose another \(.port) or \(.host), or stop what uses it"
        }
    }
}
