import Glibc
import SamplePath
import StateSocket
import Synchronization
import Testing
import TiltdTestSupport

/// `--on-demand`: the device is open exactly while socket clients are
/// connected; the release grace runs on a test clock.
@Suite(.timeLimit(.minutes(15))) struct SocketOnDemandTests {
    /// Records open/close calls in order ("failed" for an open that threw).
    final class FakeDevice: Sendable {
        let calls = NewestValue<[String]>([])
        let failOpen = Atomic<Bool>(false)
        var device: ListenOnDemand.Device {
            ListenOnDemand.Device(
                open: {
                    if self.failOpen.load(ordering: .relaxed) {
                        self.calls.update { $0.append("failed"); return true }
                        throw SocketTestClient.Failure(description: "no device")
                    }
                    self.calls.update { $0.append("open"); return true }
                },
                close: { self.calls.update { $0.append("close"); return true } })
        }
        /// The opens and closes that happened.
        var log: [String] { calls.current.value.filter { $0 != "failed" } }

        /// Returns once the calls are `expected`; throws, saying what they
        /// were, if they are not within a minute.
        func calls(_ expected: [String]) async throws {
            let calls = self.calls
            try await waitUntil("the calls \(expected); they are \(calls.current.value)") {
                var seen: UInt64 = 0
                while calls.current.value != expected {
                    guard let entry = await calls.next(after: seen) else { return false }
                    seen = entry.sequence
                }
                return true
            }
        }
    }

    /// Returns once the demand's total is `total`; throws if it is not within a minute.
    static func demand(_ demand: DemandCount, reaches total: Int) async throws {
        try await waitUntil("a demand of \(total); it is \(demand.total)") {
            var seen: UInt64 = 0
            while demand.total != total {
                guard let report = await demand.next(after: seen) else { return false }
                seen = report.sequence
            }
            return true
        }
    }

    /// The switch running in a task on `clock`, as `tiltd run --on-demand` runs it.
    static func start(_ fake: FakeDevice, _ demand: DemandCount, _ clock: ManualClock,
                      logger: LogCapture = LogCapture()) -> Task<Void, Never> {
        Task { await ListenOnDemand(logger: logger.logger).run(fake.device, demand: demand, clock: clock) }
    }

    /// A socket server whose clients are `demand`'s.
    static func server(counting demand: DemandCount) throws -> UnixSocketServer {
        try UnixSocketServer(path: try TestPaths.temporaryDirectory() + "/s.sock") { demand.socketClients($0) }
    }

    @Test func deviceOpensWithTheFirstClientAndClosesAfterTheLast() async throws {
        let notices = LogCapture()
        let demand = DemandCount(), clock = ManualClock(), fake = FakeDevice()
        let server = try Self.server(counting: demand)
        defer { server.close() }
        let onDemand = Self.start(fake, demand, clock, logger: notices)
        #expect(fake.log.isEmpty, "nothing opens without clients")

        var first: SocketTestClient? = try SocketTestClient(path: server.path)
        try await fake.calls(["open"])
        var second: SocketTestClient? = try SocketTestClient(path: server.path)
        try await Self.demand(demand, reaches: 2)
        first = nil
        try await Self.demand(demand, reaches: 1)
        #expect(fake.log == ["open"], "still one client: the device stays open")
        second = nil
        try await Self.demand(demand, reaches: 0)
        await clock.sleepers(1)
        #expect(fake.log == ["open"], "the release grace runs")
        clock.advance(by: .seconds(2))
        try await fake.calls(["open", "close"])
        let third = try SocketTestClient(path: server.path)
        try await fake.calls(["open", "close", "open"])
        onDemand.cancel()
        await onDemand.value
        #expect(fake.log == ["open", "close", "open", "close"])
        _ = (first, second, third)
        #expect(notices.lines.contains("tiltd: last client left: device released"))
    }

    @Test func aDeviceThatCannotOpenIsReportedAndRetriedByTheNextClient() async throws {
        let notices = LogCapture()
        let demand = DemandCount(), clock = ManualClock(), fake = FakeDevice()
        let server = try Self.server(counting: demand)
        defer { server.close() }
        fake.failOpen.store(true, ordering: .relaxed)
        let onDemand = Self.start(fake, demand, clock, logger: notices)
        var client: SocketTestClient? = try SocketTestClient(path: server.path)
        try await fake.calls(["failed"])
        client = nil
        try await Self.demand(demand, reaches: 0)
        fake.failOpen.store(false, ordering: .relaxed)
        client = try SocketTestClient(path: server.path)
        try await fake.calls(["failed", "open"])
        #expect(notices.lines.contains { $0.contains("cannot be opened: no device") })
        onDemand.cancel()
        await onDemand.value
        _ = client
    }

    /// A device opened for one client, closed 2 s after the last leaves (on `clock`).
    static func openWithGrace() async throws -> (Task<Void, Never>, DemandCount, FakeDevice, ManualClock) {
        let demand = DemandCount(), clock = ManualClock(), fake = FakeDevice()
        let onDemand = start(fake, demand, clock)
        demand.socketClients(1)
        try await fake.calls(["open"])
        return (onDemand, demand, fake, clock)
    }

    /// Claim and release churn (or clients reconnecting
    /// in a loop) does not power the device up and down each time.
    @Test func churnWithinTheReleaseGraceKeepsTheDeviceOpen() async throws {
        let (onDemand, demand, fake, clock) = try await Self.openWithGrace()
        // Every departure is acted on before the next arrival: the worst case.
        for _ in 0..<100 {
            demand.socketClients(0)
            await clock.sleepers(1)
            demand.socketClients(1)
            await clock.sleepers(0)
        }
        #expect(fake.log == ["open"], "opened once, and not closed while the grace runs")
        // The graces of those departures all ended with a client back: the
        // clock passing their end closes nothing.
        clock.advance(by: .seconds(2))
        #expect(fake.log == ["open"])
        // The last client leaves: once the grace is over, the device closes, once.
        demand.socketClients(0)
        await clock.sleepers(1)
        clock.advance(by: .seconds(1))
        #expect(fake.log == ["open"])
        clock.advance(by: .seconds(1))
        try await fake.calls(["open", "close"])
        onDemand.cancel()
        await onDemand.value
        #expect(fake.log == ["open", "close"])
    }

    @Test func theEndOfTheRunClosesWithoutWaitingForTheGrace() async throws {
        let (onDemand, demand, fake, clock) = try await Self.openWithGrace()
        demand.socketClients(0)
        await clock.sleepers(1)
        onDemand.cancel()
        await onDemand.value
        #expect(fake.log == ["open", "close"])
        clock.advance(by: .seconds(2))
        #expect(fake.log == ["open", "close"], "a late grace closes nothing twice")
    }

    /// One stream of counts: the device stays open while either kind of
    /// consumer wants it.
    @Test func busClaimsAndSocketClientsAddUp() async throws {
        let (onDemand, demand, fake, clock) = try await Self.openWithGrace()
        demand.busClaims(1)
        demand.socketClients(0)
        try await Self.demand(demand, reaches: 1)
        // The socket client left, the claim holds it open past the grace.
        clock.advance(by: .seconds(5))
        #expect(fake.log == ["open"])
        demand.busClaims(0)
        await clock.sleepers(1)
        clock.advance(by: .seconds(2))
        try await fake.calls(["open", "close"])
        onDemand.cancel()
        await onDemand.value
        #expect(fake.log == ["open", "close"])
    }
}
