import Foundation
import Testing
import TiltdTestSupport
import Web

/// A web site the user visits cannot take the live
/// streams. Its no-cors requests (`<img src=http://127.0.0.1:8046/events>`)
/// carry no `Origin` but do carry `Sec-Fetch-Site`, and one client address
/// can hold at most its share of the slots.
@Suite(.timeLimit(.minutes(15))) struct WebStreamSourceTests {
    @Test(arguments: ["cross-site", "same-site", "Cross-Site"])
    func aStreamAnotherSiteAsksForIsRefused(site: String) async throws {
        try await WebServerTests.withServer { server, port in
            let events = try WebTestClient.request("GET", "/events", port: port, headers: ["Sec-Fetch-Site": site])
            #expect(events.status == 403, "/events with Sec-Fetch-Site: \(site)")
            #expect(events.body.contains("cross-origin stream refused"))
            var upgrade = WebServerTests.upgradeHeaders(origin: nil)
            upgrade["Sec-Fetch-Site"] = site
            #expect(try WebTestClient.request("GET", "/ws", port: port, headers: upgrade).status == 403, "/ws, \(site)")
            #expect(server.slots.count == 0)
        }
    }

    @Test(arguments: ["same-origin", "none"])
    func theServersOwnPageAndATypedAddressStream(site: String) async throws {
        try await WebServerTests.withServer { server, port in
            let events = try WebTestClient(port: port)
            events.send("GET", "/events", port: port, headers: ["Sec-Fetch-Site": site])
            #expect(try events.readResponse().status == 200)
            let socket = try WebTestClient(port: port)
            var upgrade = WebServerTests.upgradeHeaders(origin: "http://127.0.0.1:\(port)")
            upgrade["Sec-Fetch-Site"] = site
            socket.send("GET", "/ws", port: port, headers: upgrade)
            #expect(try socket.readResponse().status == 101)
            #expect(server.slots.count == 2)
        }
    }

    /// The attack of the issue without `Sec-Fetch-Site` (an older browser, or
    /// a script): 32 streams from one address at the default limits.
    @Test func oneAddressCannotTakeEveryStream() async throws {
        try await WebServerTests.withServer(configure: { $0.maxStreams = 32 }) { server, port in
            var attackers: [WebTestClient] = []
            var refusals: [String] = []
            for _ in 0..<32 {
                let client = try WebTestClient(port: port, from: "127.0.0.2")
                client.send("GET", "/events", port: port)
                let response = try client.readResponse()
                if response.status == 200 { attackers.append(client) } else { refusals.append(response.body) }
            }
            let share = WebStreamSlots.defaultPerSourceLimit(limit: 32)
            #expect(attackers.count == share, "one address holds half the streams")
            #expect(refusals.count == 32 - share)
            #expect(refusals.allSatisfy { $0.contains("too many live streams from 127.0.0.2 (\(share) of 32)") },
                    "\(refusals.first ?? "")")
            #expect(server.slots.count(from: "127.0.0.2") == share)
            // The real page, from another address, still gets both streams.
            let page = try WebTestClient(port: port)
            page.send("GET", "/events", port: port, headers: ["Sec-Fetch-Site": "same-origin"])
            #expect(try page.readResponse().status == 200)
            let socket = try WebTestClient.webSocket(port: port, origin: "http://127.0.0.1:\(port)")
            #expect(server.slots.count == share + 2)
            withExtendedLifetime((attackers, socket)) {}
        }
    }

    @Test func thePerClientLimitIsConfigurable() async throws {
        try await WebServerTests.withServer(maxStreams: 4, configure: { $0.maxStreamsPerClient = 1 }) { server, port in
            let first = try WebTestClient(port: port)
            first.send("GET", "/events", port: port)
            #expect(try first.readResponse().status == 200)
            let second = try WebTestClient.request("GET", "/ws", port: port, headers: WebServerTests.upgradeHeaders(origin: nil))
            #expect(second.status == 503)
            #expect(second.body.contains("too many live streams from 127.0.0.1 (1 of 4)"), "\(second.body)")
            #expect(second.headers["retry-after"] == "5")
            #expect(try WebTestClient.request("GET", "/events", port: port, from: "127.0.0.3").status == 200)
            #expect(server.slots.perSourceLimit == 1)
        }
    }
}
