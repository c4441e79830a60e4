import Foundation
import Glibc
import Synchronization
import Streaming
import Testing
import TiltdTestSupport

/// `--on-demand`: the device is open exactly while socket clients are connected.
@Suite struct SocketOnDemandTests {
    /// Records open/close calls in order.
    final class FakeDevice: Sendable {
        let calls = Mutex<[String]>([])
        let failOpen = Atomic<Bool>(false)
        var device: ListenOnDemand.Device {
            ListenOnDemand.Device(
                open: {
                    if self.failOpen.load(ordering: .relaxed) { throw SocketTestClient.Failure(description: "no device") }
                    self.calls.withLock { $0.append("open") }
                },
                close: { self.calls.withLock { $0.append("close") } })
        }
        var log: [String] { calls.withLock { $0 } }
    }

    @Test func deviceOpensWithTheFirstClientAndClosesAfterTheLast() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let notices = LogCapture()
            let onDemand = ListenOnDemand(logger: notices.logger)
            let server = try UnixSocketServer(path: dir + "/s.sock") { onDemand.clientCountChanged($0) }
            defer { server.close() }
            let fake = FakeDevice()
            onDemand.attach(fake.device)
            usleep(100_000)
            #expect(fake.log.isEmpty, "nothing opens without clients")

            var first: SocketTestClient? = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually(30) { fake.log == ["open"] })
            var second: SocketTestClient? = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually(30) { server.clientCount == 2 })
            first = nil
            #expect(TestPaths.eventually(30) { server.clientCount == 1 })
            usleep(100_000)
            #expect(fake.log == ["open"], "still one client: the device stays open")
            second = nil
            #expect(TestPaths.eventually(30) { fake.log == ["open", "close"] })
            let third = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually(30) { fake.log == ["open", "close", "open"] })
            onDemand.release()
            #expect(fake.log == ["open", "close", "open", "close"])
            _ = (first, second, third)
            #expect(notices.lines.contains("tiltd: last client left: device released"))
        }
    }

    @Test func aDeviceThatCannotOpenIsReportedAndRetriedByTheNextClient() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let notices = LogCapture()
            let onDemand = ListenOnDemand(logger: notices.logger)
            let server = try UnixSocketServer(path: dir + "/s.sock") { onDemand.clientCountChanged($0) }
            defer { server.close() }
            let fake = FakeDevice()
            fake.failOpen.store(true, ordering: .relaxed)
            onDemand.attach(fake.device)
            var client: SocketTestClient? = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually(30) { notices.lines.contains { $0.contains("cannot be opened: no device") } })
            client = nil
            #expect(TestPaths.eventually(30) { server.clientCount == 0 })
            fake.failOpen.store(false, ordering: .relaxed)
            client = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually(30) { fake.log == ["open"] })
            onDemand.release()
            _ = client
        }
    }

    /// Release timers the test fires itself.
    final class ManualTimers: Sendable {
        private let pending = Mutex<[@Sendable () -> Void]>([])
        var schedule: ListenOnDemand.Scheduler { { _, body in self.pending.withLock { $0.append(body) } } }
        var count: Int { pending.withLock { $0.count } }
        func fireAll() {
            for body in pending.withLock({ timers in defer { timers.removeAll() }; return timers }) { body() }
        }
    }

    /// A device opened for one client, closed 2 s after the last leaves (on `timers`).
    static func openWithGrace() -> (ListenOnDemand, FakeDevice, ManualTimers) {
        let timers = ManualTimers()
        let onDemand = ListenOnDemand(logger: LogCapture().logger, releaseGraceSeconds: 2, schedule: timers.schedule)
        let fake = FakeDevice()
        onDemand.attach(fake.device)
        onDemand.clientCountChanged(1)
        onDemand.waitUntilSettled()
        return (onDemand, fake, timers)
    }

    /// Issue 21, item 12: claim and release churn (or clients reconnecting
    /// in a loop) does not power the device up and down each time.
    @Test func churnWithinTheReleaseGraceKeepsTheDeviceOpen() throws {
        let (onDemand, fake, timers) = Self.openWithGrace()
        #expect(fake.log == ["open"])
        // Every departure is acted on before the next arrival: the worst case.
        for _ in 0..<100 {
            onDemand.clientCountChanged(0)
            onDemand.waitUntilSettled()
            onDemand.clientCountChanged(1)
            onDemand.waitUntilSettled()
        }
        #expect(fake.log == ["open"], "opened once, and not closed while the grace runs")
        #expect(timers.count == 100)
        // The timers of those departures all find a client back: none closes.
        timers.fireAll()
        onDemand.waitUntilSettled()
        #expect(fake.log == ["open"])
        // The last client leaves: once the grace is over, the device closes, once.
        onDemand.clientCountChanged(0)
        onDemand.waitUntilSettled()
        #expect(fake.log == ["open"])
        timers.fireAll()
        onDemand.waitUntilSettled()
        #expect(fake.log == ["open", "close"])
        onDemand.release()
        #expect(fake.log == ["open", "close"])
    }

    @Test func theEndOfTheRunClosesWithoutWaitingForTheGrace() throws {
        let (onDemand, fake, timers) = Self.openWithGrace()
        onDemand.clientCountChanged(0)
        onDemand.release()
        #expect(fake.log == ["open", "close"])
        timers.fireAll()
        onDemand.waitUntilSettled()
        #expect(fake.log == ["open", "close"], "a late timer closes nothing twice")
    }
}
