import Testing
@testable import Web

/// The Host allowlist and the Origin check against it (DNS rebinding).
@Suite(.timeLimit(.minutes(2))) struct WebHostAllowlistTests {
    let loopback = WebHostAllowlist(boundHost: "127.0.0.1")

    @Test func localNamesWithOrWithoutPortAreAllowed() {
        for host in ["localhost", "LOCALHOST:8046", "localhost.", "127.0.0.1", "127.0.0.1:8046", "[::1]", "[::1]:8046"] {
            #expect(loopback.allows(host: host), "\(host)")
        }
    }

    @Test func foreignMalformedOrMissingHostsAreRefused() {
        for host in ["evil.example", "evil.example:8046", "127.0.0.2", "localhost.evil.example", "", ":8046",
                     "localhost:", "localhost:80x", "localhost:99999", "[::1", "user@localhost", "::1"] {
            #expect(!loopback.allows(host: host), "\(host)")
        }
        #expect(!loopback.allows(host: nil))
    }

    @Test func theBoundAddressAndExtraNamesAreAllowed() {
        let lan = WebHostAllowlist(boundHost: "192.168.1.7", extra: ["Mybox.local", "kiosk:9000"])
        #expect(lan.allows(host: "192.168.1.7:8046"))
        #expect(lan.allows(host: "mybox.local:8046"))
        #expect(lan.allows(host: "kiosk"))
        #expect(!lan.allows(host: "192.168.1.8"))
        let v6 = WebHostAllowlist(boundHost: "fe80::1")
        #expect(v6.allows(host: "[fe80::1]:8046"))
        // The wildcard is not a name anyone browses to.
        #expect(WebHostAllowlist(boundHost: "0.0.0.0").names == ["localhost", "127.0.0.1", "[::1]"])
        #expect(WebHostAllowlist.isValidName("mybox.local"))
        #expect(!WebHostAllowlist.isValidName("http://mybox.local"))
        #expect(!WebHostAllowlist.isValidName("mybox.local/path"))
    }

    @Test func originMustNameAnAllowedHostOnTheServersPort() {
        let ports: Set<Int> = [8046]
        #expect(WebOriginPolicy.allows(origin: nil, allowlist: loopback, ports: ports))
        #expect(WebOriginPolicy.allows(origin: "http://127.0.0.1:8046", allowlist: loopback, ports: ports))
        #expect(WebOriginPolicy.allows(origin: "http://[::1]:8046", allowlist: loopback, ports: ports))
        #expect(WebOriginPolicy.allows(origin: "http://LOCALHOST", allowlist: loopback, ports: [80]))
        // DNS rebinding: Origin and Host agree, but neither is on the list.
        #expect(!WebOriginPolicy.allows(origin: "http://evil.example:8046", allowlist: loopback, ports: ports))
        #expect(!WebOriginPolicy.allows(origin: "http://127.0.0.1:8047", allowlist: loopback, ports: ports))
        #expect(!WebOriginPolicy.allows(origin: "https://127.0.0.1:8046", allowlist: loopback, ports: ports))
        #expect(!WebOriginPolicy.allows(origin: "null", allowlist: loopback, ports: ports))
        #expect(!WebOriginPolicy.allows(origin: "http://127.0.0.1:8046/x", allowlist: loopback, ports: ports))
    }
}
