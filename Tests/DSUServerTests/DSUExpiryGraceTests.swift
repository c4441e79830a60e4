@testable import DSU
import Glibc
import NIOCore
import Synchronization
import Testing
import TiltdTestSupport

/// A server held up past a subscription's end (stopped, starved) finds the
/// renewal that queued meanwhile before it drops anyone.
@Suite(.timeLimit(.minutes(5))) struct DSUExpiryGraceTests {
    /// A subscriber whose subscription lapses (on the server's clock) while
    /// the event loop is held for 400 ms of real time, as a stopped process
    /// is, and whose renewal queues in its own socket meanwhile. `first`
    /// runs on the event loop just before the hold. Then checks that the
    /// client is still subscribed once whatever the server decided has been
    /// decided.
    static func renewWhileHeld(first: @escaping @Sendable (DSUServer) -> Void = { _ in }) async throws {
        let (server, clock, counts) = try await DSUServerTests.shortLived()
        defer { server.close() }
        let client = try await DSUTestClient(serverPort: server.address.port)
        try await client.requestData()
        try await counts.wait(for: 1)
        try await DSUServerTests.clientSockets(server, become: 1)
        let deadline = ContinuousClock.now + .seconds(60)
        let holding = Atomic<Bool>(false)
        let held = server.eventLoop.submit {
            first(server)
            holding.store(true, ordering: .sequentiallyConsistent)
            usleep(400_000)
        }
        while !holding.load(ordering: .sequentiallyConsistent) {
            try #require(ContinuousClock.now < deadline, "the event loop did not run the hold within 60 s")
            try await Task.sleep(for: .milliseconds(1))
        }
        clock.advance(by: .milliseconds(200))
        try await client.requestData()
        try await held.get()
        // Past the grace: whatever the server decided has been decided.
        try await server.eventLoop.scheduleTask(in: .milliseconds(200)) {}.futureResult.get()
        #expect(counts.latest == 1 && server.clientCount == 1,
                "the client was dropped with its renewal waiting (\(server.clientCount) subscribed)")
        #expect(server.openClientSockets == 1)
    }

    /// The expiry wake-up, armed for 200 ms after the request, comes due
    /// during the hold.
    @Test func aRenewalQueuedWhileTheEventLoopWasHeldKeepsTheClient() async throws {
        try await Self.renewWhileHeld()
    }

    /// Held up inside the grace itself (between the expiry wake-up and the
    /// drop it leads to): the drop waits while a request is unread.
    @Test func aRenewalQueuedWhileHeldDuringTheGraceKeepsTheClient() async throws {
        try await Self.renewWhileHeld { server in server.expireAfterGrace(graces: 1) }
    }
}
