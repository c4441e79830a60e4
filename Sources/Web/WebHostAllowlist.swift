/// The host names this server answers to: every request's `Host` and every
/// stream's `Origin` must name one of them.
///
/// Without it, DNS rebinding works: a page on `evil.example` whose name is
/// re-pointed at 127.0.0.1 reaches tiltd as the same origin, so the browser
/// lets it read `/state` and the streams. Its requests still carry `Host:
/// evil.example`, which is not on the list. Ports are not compared for Host
/// (a forwarded port changes them); names are, lowercased, with IPv6
/// literals in brackets.
public struct WebHostAllowlist: Sendable, Equatable {
    /// Normalized names: `localhost`, `127.0.0.1`, `[::1]`, …
    public private(set) var names: Set<String>

    /// localhost, 127.0.0.1, [::1], the bound address (unless it is the
    /// wildcard 0.0.0.0 or ::) and `extra` (`Setting.allowHost`).
    public init(boundHost: String, extra: [String] = []) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        if boundHost != "0.0.0.0" && boundHost != "::" {
            names.insert(Self.normalizedName(boundHost.contains(":") && !boundHost.hasPrefix("[") ? "[\(boundHost)]" : boundHost))
        }
        for name in extra {
            let parsed = Self.split(authority: name)
            names.insert(parsed?.name ?? Self.normalizedName(name))
        }
        self.names = names
    }

    /// True when `host` (a `Host` header: `name` or `name:port`) names this server.
    public func allows(host: String?) -> Bool {
        guard let host, let parsed = Self.split(authority: host) else { return false }
        return names.contains(parsed.name)
    }

    /// True when `name` can go on the list: a host name or address, with
    /// an optional port, and no scheme, path or credentials.
    public static func isValidName(_ name: String) -> Bool {
        split(authority: name) != nil && !name.contains("://")
    }

    /// `name[:port]` split into a normalized name and the port (nil when
    /// absent); nil when malformed (empty name, bad port, stray colon).
    static func split(authority: some StringProtocol) -> (name: String, port: Int?)? {
        let text = Substring(authority)
        var name: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[...close]
            rest = text[text.index(after: close)...]
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            rest = text[colon...]
        } else {
            name = text
            rest = ""
        }
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "/" || $0 == "@" }) else { return nil }
        var port: Int?
        if !rest.isEmpty {
            let digits = rest.dropFirst()
            guard rest.first == ":", !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCII),
                  let value = Int(digits), (0...65535).contains(value) else { return nil }
            port = value
        }
        return (normalizedName(name), port)
    }

    /// Lowercased, without the trailing dot of a fully qualified name.
    static func normalizedName(_ name: some StringProtocol) -> String {
        var lower = name.lowercased()
        if lower.hasSuffix(".") && lower.count > 1 { lower.removeLast() }
        return lower
    }
}
