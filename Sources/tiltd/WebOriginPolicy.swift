/// Which browsers may open the live streams: a page served by tiltd itself
/// (same origin) or a client that sends no Origin at all (curl, scripts).
///
/// A WebSocket is not covered by the browser's same-origin policy, so without
/// this check any web site the user visits could read the device's motion
/// (cross-site WebSocket hijacking). `Origin: null` (sandboxed frames, files)
/// and https origins (tiltd serves plain HTTP) are refused too.
enum WebOriginPolicy {
    /// True when a request with these `Origin` and `Host` headers may stream.
    static func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let host, let originAuthority = authority(ofOrigin: origin) else { return false }
        return normalized(originAuthority.authority, defaultPort: originAuthority.defaultPort)
            == normalized(host, defaultPort: originAuthority.defaultPort)
    }

    /// `host[:port]` and the scheme's default port of an origin such as
    /// `http://127.0.0.1:8046`; nil for `null` or anything unparsable.
    private static func authority(ofOrigin origin: String) -> (authority: Substring, defaultPort: Int)? {
        let lower = origin.lowercased()
        // tiltd serves plain HTTP only, so an https page is another origin.
        for (scheme, port) in [("http://", 80)] where lower.hasPrefix(scheme) {
            let rest = origin.dropFirst(scheme.count)
            guard !rest.isEmpty, !rest.contains("/") else { return nil }
            return (rest, port)
        }
        return nil
    }

    /// Lowercased `host:port`, with the default port made explicit.
    private static func normalized(_ authority: some StringProtocol, defaultPort: Int) -> String {
        let lower = authority.lowercased()
        // An IPv6 literal is bracketed: the port follows "]:".
        if let closing = lower.lastIndex(of: "]") {
            return lower[lower.index(after: closing)...].hasPrefix(":") ? lower : lower + ":\(defaultPort)"
        }
        return lower.contains(":") ? lower : lower + ":\(defaultPort)"
    }
}
