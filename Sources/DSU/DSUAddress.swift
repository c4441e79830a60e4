import NIOCore

/// Where the DSU server serves: `PORT` (on 127.0.0.1) or `HOST:PORT`, HOST an
/// IPv4 address or an IPv6 one in brackets (`[::1]:26760`). Numeric only, so
/// parsing never waits on a resolver.
public struct DSUAddress: Equatable, Sendable, CustomStringConvertible {
    /// Text that is not `PORT` or `HOST:PORT`.
    public enum Invalid: Error, Sendable, Equatable {
        /// No port from 0 to 65535 after the last colon (or in the whole text).
        case badPort
        /// The host is not a numeric IPv4 or IPv6 address.
        case notAnIPAddress(host: String)
    }

    /// The address to bind, as given (default 127.0.0.1).
    public var host: String
    public var port: UInt16

    /// The host a bare `PORT` binds: loopback, so only this machine's emulators reach it.
    public static let defaultHost = "127.0.0.1"

    public init(host: String = DSUAddress.defaultHost, port: UInt16 = DSUProtocol.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT` or `HOST:PORT`.
    ///
    /// - Throws: `Invalid` saying which part is wrong.
    public init(parsing argument: String) throws(Invalid) {
        var host = Self.defaultHost
        var portText = Substring(argument)
        if let colon = argument.lastIndex(of: ":") {
            host = String(argument[..<colon])
            portText = argument[argument.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        }
        guard let port = UInt16(portText) else { throw .badPort }
        guard (try? SocketAddress(ipAddress: host, port: Int(port))) != nil else { throw .notAnIPAddress(host: host) }
        self.host = host
        self.port = port
    }

    /// The socket address to bind.
    public var socketAddress: SocketAddress {
        // Checked when parsed; a host given to `init(host:port:)` unchecked fails here.
        try! SocketAddress(ipAddress: host, port: Int(port))
    }

    /// True when only this machine can reach the address: 127.0.0.0/8, ::1
    /// and 127.x mapped into IPv6 (::ffff:127.0.0.1), however written.
    public var isLoopback: Bool { Self.isLoopback(socketAddress) }

    /// True when `address` is on the loopback network (see `isLoopback`).
    public static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let address): return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            let loopback6 = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let mapped4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            return loopback6 || mapped4
        default: return false
        }
    }

    /// `HOST:PORT` (an IPv6 host in brackets).
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The warning a server beyond loopback gets: anyone who can reach it
    /// can read the motion, and, since UDP's sender address can be forged,
    /// make it stream to a third host (subscribers whose port answers
    /// "unreachable" are dropped, and each host holds a bounded share).
    public var exposureWarning: String? {
        isLoopback ? nil
            : "DSU on \(self) is reachable from other machines and has no authentication: anyone who can reach "
            + "it can read the device's motion, and a host on the network can forge a request's sender address to "
            + "point the stream (about 100 bytes per sample) at another machine; serve on 127.0.0.1 unless an "
            + "emulator on another machine needs it"
    }
}
