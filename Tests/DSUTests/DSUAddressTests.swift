import DSU
import Motion
import Testing

/// `PORT` or `HOST:PORT`, loopback by default.
@Suite(.timeLimit(.minutes(2))) struct DSUAddressTests {
    @Test func aBarePortServesLoopback() throws {
        let address = try DSUAddress(parsing: "26760")
        #expect(address == DSUAddress(host: "127.0.0.1", port: 26760))
        #expect(address.isLoopback)
        #expect(address.exposureWarning == nil)
    }

    @Test func aHostBeyondLoopbackIsWarnedAbout() throws {
        let address = try DSUAddress(parsing: "0.0.0.0:26761")
        #expect(address.port == 26761 && !address.isLoopback)
        #expect(address.exposureWarning?.contains("no authentication") == true)
        #expect(try DSUAddress(parsing: "[::1]:26760").isLoopback)
        #expect(try DSUAddress(parsing: "[::1]:26760").description == "[::1]:26760")
        #expect(try !DSUAddress(parsing: "[::]:26760").isLoopback)
        #expect(address.exposureWarning?.contains("forge a request's sender address") == true)
    }

    @Test(arguments: ["[::ffff:127.0.0.1]:26760", "[0:0:0:0:0:0:0:1]:26760", "[::ffff:127.1.2.3]:1", "127.9.9.9:1"])
    func loopbackWrittenInFullIsLoopback(_ text: String) throws {
        let address = try DSUAddress(parsing: text)
        #expect(address.isLoopback)
        #expect(address.exposureWarning == nil)
    }

    @Test(arguments: ["[::ffff:10.0.0.1]:26760", "[::2]:26760", "[fe80::1]:1", "128.0.0.1:1"])
    func otherAddressesAreNot(_ text: String) throws {
        #expect(try !DSUAddress(parsing: text).isLoopback)
    }

    @Test(arguments: ["", "-1", "65536", "port", "127.0.0.1:", "[::1]:x"])
    func aBadPortIsRefused(_ text: String) {
        #expect(throws: DSUAddress.Invalid.badPort) { try DSUAddress(parsing: text) }
    }

    @Test(arguments: [("localhost:26760", "localhost"), ("1.2.3:26760", "1.2.3"), (":26760", "")])
    func aHostThatIsNoIPAddressIsRefused(_ text: String, host: String) {
        #expect(throws: DSUAddress.Invalid.notAnIPAddress(host: host)) { try DSUAddress(parsing: text) }
    }
}
