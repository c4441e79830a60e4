import Glibc
import StateSocket
import Synchronization
import Testing
import TiltdTestSupport

/// Clients that connect and hang up at once: each must
/// give its slot back, so that a burst of them neither locks real readers
/// out nor keeps an on-demand device open.
@Suite(.timeLimit(.minutes(15))) struct SocketChurnTests {
    /// Connects and closes `count` times without reading anything.
    static func churn(_ path: String, count: Int) throws {
        for _ in 0..<count {
            _ = try SocketTestClient(path: path)  // closed again by deinit
        }
    }

    @Test func quickConnectAndCloseCyclesGiveTheirSlotsBack() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            // A current state: every new client is sent it at once, and the
            // send to a peer that has already hung up fails.
            server.emit(TestStates.state(1))
            try Self.churn(server.path, count: 3 * UnixSocketServer.Limits().maxClients)
            #expect(TestPaths.eventually(30) { server.clientCount == 0 },
                    "\(server.clientCount) clients still held after every peer hung up")
            let reader = try SocketTestClient(path: server.path)
            #expect(reader.readLine() == TestStates.line(1))
        }
    }

    @Test func churnLeavesAnOnDemandDeviceClosed() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let counts = Mutex<[Int]>([])
            let server = try UnixSocketServer(path: dir + "/s.sock") { count in
                counts.withLock { $0.append(count) }
            }
            defer { server.close() }
            server.emit(TestStates.state(1))
            try Self.churn(server.path, count: 200)
            // Peers that hung up before their first line are never counted;
            // those that were counted must have been counted out again.
            #expect(TestPaths.eventually(30) { (counts.withLock { $0.last } ?? 0) == 0 && server.clientCount == 0 },
                    "the last client count reported was \(String(describing: counts.withLock { $0.last }))")
        }
    }
}
