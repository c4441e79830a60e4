import Foundation
import Glibc
import StateSocket
import Testing
import TiltdTestSupport

/// The client limit: what it refuses, what it logs, and that connections
/// which never read cannot lock real readers out.
@Suite(.timeLimit(.minutes(15))) struct SocketLimitTests {
    @Test func sixtyFourIdleConnectionsDoNotLockOutARealClient() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            var limits = UnixSocketServer.Limits()
            limits.sendBufferBytes = 4096
            limits.stalledGraceSeconds = 0.2
            let log = LogCapture()
            let server = try UnixSocketServer(path: dir + "/s.sock", limits: limits, logger: log.logger)
            defer { server.close() }
            let idle = try (0..<limits.maxClients).map { _ in try SocketTestClient(path: server.path, receiveBufferBytes: 1024) }
            #expect(TestPaths.eventually { server.clientCount == limits.maxClients })
            // States flow and the idle connections never read, so their queues
            // fill; a real client then takes the place of one of them.
            var index = 0
            var admitted: SocketTestClient?
            let gotIn = TestPaths.eventually(30) {
                for _ in 0..<50 {
                    server.emit(TestStates.state(index))
                    index += 1
                }
                guard let client = try? SocketTestClient(path: server.path),
                      let first = client.readLine(timeout: 5), !first.contains("too many clients") else { return false }
                admitted = client
                return true
            }
            #expect(gotIn, "a real client was locked out: \(log.lines)")
            #expect(server.clientCount == limits.maxClients)
            // It is served like any client: the next state arrives.
            server.emit(TestStates.state(index))
            let next = admitted?.readLines(quietFor: 10) { $0 == TestStates.line(index) }
            #expect(next?.last == TestStates.line(index))
            #expect(log.lines.contains { $0.contains("dropping clients that stopped reading") })
            _ = idle
        }
    }

    @Test func refusalsAreLoggedOncePerBurst() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            var limits = UnixSocketServer.Limits()
            limits.maxClients = 2
            let log = LogCapture()
            let server = try UnixSocketServer(path: dir + "/s.sock", limits: limits, logger: log.logger)
            defer { server.close() }
            var kept = try (0..<2).map { _ in try SocketTestClient(path: server.path) }
            #expect(TestPaths.eventually { server.clientCount == 2 })
            // Readers that keep up are never dropped: newcomers are refused.
            for _ in 0..<20 {
                let refused = try SocketTestClient(path: server.path)
                #expect(refused.readLine()?.contains("too many clients (2)") == true)
                #expect(refused.sawEndOfStream(timeout: 10))
            }
            #expect(server.clientCount == 2)
            #expect(log.lines.filter { $0.contains("refusing more") }.count == 1, "\(log.lines)")
            // The burst ends when a client leaves: one line sums it up.
            kept.removeFirst()
            #expect(TestPaths.eventually { log.lines.contains { $0.contains("refused 20 and dropped 0") } }, "\(log.lines)")
            #expect(log.lines.filter { $0.contains("refus") }.count == 2)
            _ = kept
        }
    }
}
