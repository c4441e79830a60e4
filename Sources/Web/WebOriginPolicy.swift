import Foundation
import Hummingbird

/// Which browsers may open the live streams: pages served under a name on
/// the host allowlist, on this server's port, or clients that send no
/// Origin at all (curl, scripts); and never a request the browser itself
/// marks as coming from another site (`Sec-Fetch-Site`).
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
    /// True unless the browser says the request comes from another site.
    ///
    /// A no-cors request (`<img src=http://127.0.0.1:8046/events>` on any
    /// web site) carries no `Origin`, so the Origin check lets it through;
    /// but browsers send `Sec-Fetch-Site` with every request to a
    /// trustworthy origin such as 127.0.0.1 or localhost: `same-origin` from
    /// this server's own page, `none` when the user typed the address, and
    /// `same-site` or `cross-site` from any other page (another port of
    /// localhost is `same-site`). Clients that send none (curl, scripts,
    /// older browsers) are allowed, as for `Origin`.
    static func allows(fetchSite: String?) -> Bool {
        guard let fetchSite else { return true }
        let site = fetchSite.trimmingCharacters(in: .whitespaces).lowercased()
        return site == "same-origin" || site == "none"
    }

    /// True when the stream request `head` (its Host already allowed) may stream.
    static func allows(_ head: HTTPRequest, allowlist: WebHostAllowlist, boundPort: Int?) -> Bool {
        guard allows(fetchSite: head.headerFields[.init("Sec-Fetch-Site")!]) else { return false }
        var ports: Set<Int> = []
        if let boundPort { ports.insert(boundPort) }
        if let authority = head.authority, let port = WebHostAllowlist.split(authority: authority)?.port {
            ports.insert(port)
        }
        return allows(origin: head.headerFields[.origin], allowlist: allowlist, ports: ports)
    }
}
