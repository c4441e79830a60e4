import Hummingbird

/// Which browsers may open the live streams: pages served under a name on
/// the host allowlist, on this server's port, or clients that send no
/// Origin at all (curl, scripts).
///
/// A WebSocket is not covered by the browser's same-origin policy, so without
/// this check any web site the user visits could read the device's motion
/// (cross-site WebSocket hijacking). The Origin is compared with the
/// allowlist, never with the request's own Host: under DNS rebinding both
/// say `evil.example` and agree. `Origin: null` (sandboxed frames, files)
/// and https origins (tiltd serves plain HTTP) are refused.
enum WebOriginPolicy {
    /// True when a request with this `Origin` may stream.
    ///
    /// - Parameters:
    ///   - origin: the `Origin` header, nil when absent.
    ///   - allowlist: the names this server answers to.
    ///   - ports: the ports a page of this server can have: the bound one and
    ///     the port of the (already allowed) `Host` header.
    static func allows(origin: String?, allowlist: WebHostAllowlist, ports: Set<Int>) -> Bool {
        guard let origin else { return true }
        let scheme = "http://"
        guard origin.lowercased().hasPrefix(scheme) else { return false }
        let authority = origin.dropFirst(scheme.count)
        guard let parsed = WebHostAllowlist.split(authority: authority) else { return false }
        return allowlist.names.contains(parsed.name) && ports.contains(parsed.port ?? 80)
    }
}

extension WebOriginPolicy {
    /// True when the stream request `head` (its Host already allowed) may stream.
    static func allows(_ head: HTTPRequest, allowlist: WebHostAllowlist, boundPort: Int?) -> Bool {
        var ports: Set<Int> = []
        if let boundPort { ports.insert(boundPort) }
        if let authority = head.authority, let port = WebHostAllowlist.split(authority: authority)?.port {
            ports.insert(port)
        }
        return allows(origin: head.headerFields[.origin], allowlist: allowlist, ports: ports)
    }
}
