import Foundation
import Glibc
import Knob
import Motion
import SamplePath
import StateSocket
import Synchronization
import Testing
import TiltdTestSupport

/// The Unix socket state stream, driven in-process: fan-out, coalescing for a
/// stalled reader, joins and leaves, and the socket file's life cycle.
@Suite(.timeLimit(.minutes(15))) struct SocketBroadcastTests {
    /// Emits states `range` at `hertz`, paced against the clock (no drift).
    static func emit(_ range: Range<Int>, to sink: any StateSink, hertz: Double) {
        let start = Date()
        for index in range {
            let due = start.addingTimeInterval(Double(index - range.lowerBound) / hertz)
            let wait = due.timeIntervalSinceNow
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            sink.emit(TestStates.state(index))
        }
    }

    @Test func newClientFirstGetsTheCurrentStateAtOnce() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            server.emit(TestStates.state(1))
            server.emit(TestStates.state(2))
            let client = try SocketTestClient(path: server.path)
            #expect(client.readLine(timeout: 10) == TestStates.line(2))
            server.emit(TestStates.state(3))
            #expect(client.readLine(timeout: 10) == TestStates.line(3))
        }
    }

    /// A paced capture ends each wake-up's batch (`endBatch`): from the
    /// first, the states of a batch are held and reach every client
    /// together, in order, when it ends; until then a new client gets the
    /// state sent last.
    @Test func theStatesOfABatchGoOutTogetherWhenItEnds() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let first = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            server.emit(TestStates.state(1))
            server.endBatch()
            #expect(first.readLine(timeout: 10) == TestStates.line(1))
            server.emit(TestStates.state(2))
            server.emit(TestStates.state(3))
            // Held: a client joining now gets state 1, the last sent.
            let second = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 2 })
            #expect(second.readLine(timeout: 10) == TestStates.line(1))
            server.endBatch()
            for client in [first, second] {
                #expect(client.readLine(timeout: 10) == TestStates.line(2))
                #expect(client.readLine(timeout: 10) == TestStates.line(3))
            }
            // A batch cut short (the run ends) goes out with `flush`.
            server.emit(TestStates.state(4))
            server.flush()
            #expect(first.readLine(timeout: 10) == TestStates.line(4))
        }
    }

    @Test func afterForgettingNewClientsWaitForTheNextState() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            server.emit(TestStates.state(1))
            server.forgetCurrentState()
            let client = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            // No stale state after the device was released: the first line
            // the client reads is the next state (an explicit event, not a wait).
            server.emit(TestStates.state(2))
            #expect(client.readLine(timeout: 10) == TestStates.line(2), "no stale state after the device was released")
        }
    }

    @Test func clientBeforeAnyStateWaitsForTheFirst() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let client = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            // Nothing before the first state: the first line read is state 7.
            server.emit(TestStates.state(7))
            #expect(client.readLine(timeout: 10) == TestStates.line(7))
        }
    }

    @Test func everyReadingClientGetsEveryStateInOrder() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let clients = try (0..<3).map { _ in try SocketTestClient(path: server.path) }
            #expect(TestPaths.eventually { server.clientCount == 3 })
            let count = 400
            let received = Mutex<[[String]]>(Array(repeating: [], count: clients.count))
            let readers = clients.enumerated().map { index, client in
                Thread {
                    let lines = client.readLines(quietFor: 10) { $0 == TestStates.line(count - 1) }
                    received.withLock { $0[index] = lines }
                }
            }
            readers.forEach { $0.start() }
            Self.emit(0..<count, to: server, hertz: 200)
            #expect(TestPaths.eventually(30) { received.withLock { $0.allSatisfy { !$0.isEmpty } } })
            let expected = (0..<count).map(TestStates.line)
            for lines in received.withLock({ $0 }) {
                #expect(lines == expected)
            }
        }
    }

    @Test func stalledClientSlowsNobodyAndLaterGetsTheLatestState() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let stalled = try SocketTestClient(path: server.path, receiveBufferBytes: 4096)
            let fast = try (0..<2).map { _ in try SocketTestClient(path: server.path) }
            #expect(TestPaths.eventually { server.clientCount == 3 })
            let count = 1200
            let received = Mutex<[[String]]>(Array(repeating: [], count: fast.count))
            let readers = fast.enumerated().map { index, client in
                Thread {
                    let lines = client.readLines(quietFor: 10) { $0 == TestStates.line(count - 1) }
                    received.withLock { $0[index] = lines }
                }
            }
            readers.forEach { $0.start() }
            // 1200 states at 400 Hz: far more than the stalled client's socket
            // buffers hold, so the server must coalesce for it. Were emit to
            // block on the stalled client, which reads nothing until every
            // state is out, this loop would never end (the suite's time limit).
            Self.emit(0..<count, to: server, hertz: 400)
            #expect(TestPaths.eventually(30) { received.withLock { $0.allSatisfy { !$0.isEmpty } } })
            let expected = (0..<count).map(TestStates.line)
            for lines in received.withLock({ $0 }) {
                // Full rate: every state in order, allowing for a reader thread
                // starved longer than its socket buffer on a loaded CI machine.
                let indices = lines.compactMap { expected.firstIndex(of: $0) }
                #expect(indices.count == lines.count && indices == indices.sorted() && Set(indices).count == indices.count)
                #expect(lines.count >= count * 98 / 100, "a reading client got only \(lines.count) of \(count) states")
                #expect(lines.last == expected.last)
            }
            // Now the stalled client reads: whatever the kernel had queued, then
            // only the newest state, never the whole backlog.
            let late = stalled.readLines(quietFor: 2) { $0 == TestStates.line(count - 1) }
            #expect(late.last == TestStates.line(count - 1))
            // 1200 lines (~170 KB) exceed what the kernel queues for one client
            // (SO_SNDBUF 64 KiB, doubled by Linux), so some must have been dropped.
            #expect(late.count < count, "the stalled client received \(late.count) of \(count) states: nothing was coalesced")
            let indices = late.compactMap { expected.firstIndex(of: $0) }
            #expect(indices.count == late.count, "every line the stalled client got is a whole, valid state")
            #expect(indices == indices.sorted())
            #expect(server.clientCount == 3)
        }
    }

    @Test func aClientThatCatchesUpGetsEveryStateAgain() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            var limits = UnixSocketServer.Limits()
            limits.sendBufferBytes = 4096
            let server = try UnixSocketServer(path: dir + "/s.sock", limits: limits)
            defer { server.close() }
            let client = try SocketTestClient(path: server.path, receiveBufferBytes: 4096)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            // Far more than the socket holds while the client does not read:
            // a line is cut short by the kernel and the rest handed to NIO,
            // later lines coalesce behind it.
            let backlog = 500
            for index in 0..<backlog { server.emit(TestStates.state(index)) }
            let expected = (0..<(backlog + 50)).map(TestStates.line)
            let caughtUp = client.readLines(quietFor: 2) { $0 == TestStates.line(backlog - 1) }
            let indices = caughtUp.compactMap { expected.firstIndex(of: $0) }
            #expect(indices.count == caughtUp.count, "every line is a whole, valid state")
            #expect(indices == indices.sorted())
            #expect(caughtUp.last == TestStates.line(backlog - 1))
            #expect(caughtUp.count < backlog, "nothing was coalesced while the client did not read")
            // Once NIO has written what waited (its completion runs on the
            // event loop, which a loaded machine may run after the client
            // has already read it), states go straight out again: a client
            // that reads each state before the next is emitted gets every
            // one, in order (paced by the reader, not a clock, so a loaded
            // machine cannot make a slow reader out of it).
            #expect(TestPaths.eventually(30) { server.clientsWaitingOnHandOff == 0 })
            for index in backlog..<(backlog + 50) {
                server.emit(TestStates.state(index))
                #expect(client.readLine(timeout: 30) == expected[index])
            }
            #expect(server.clientCount == 1)
        }
    }

    @Test func memoryStaysBoundedWhileAClientIsStalled() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let stalled = try SocketTestClient(path: server.path, receiveBufferBytes: 4096)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            // A million states (~140 MB of JSON Lines) as fast as they come: an
            // unbounded per-client queue would grow by about that much.
            let count = 1_000_000
            // emit sends on this thread: when it returns, every line is out
            // or queued, and nothing is left for another thread to take.
            for index in 0..<count { server.emit(TestStates.state(index)) }
            // (The resident memory this takes is reported by bench/bounds.sh, not asserted here.)
            // The stalled client eventually sees the newest state.
            let late = stalled.readLines(quietFor: 2) { $0 == TestStates.line(count - 1) }
            #expect(late.last == TestStates.line(count - 1))
            // What it got is what the kernel had queued plus tiltd's at most two
            // lines. The kernel's queue is about SO_SNDBUF, which Linux doubles
            // and one last large send may overshoot: bound it by 4 × SO_SNDBUF,
            // against ~140 MB that an unbounded queue would have sent.
            let bytes = late.reduce(0) { $0 + $1.utf8.count + 1 }
            let bound = 4 * Int(UnixSocketServer.Limits().sendBufferBytes)
            #expect(bytes <= bound, "the stalled client received \(late.count) lines, \(bytes) bytes (bound \(bound))")
        }
    }

    @Test func clientsJoinAndLeave() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let counts = Mutex<[Int]>([])
            let server = try UnixSocketServer(path: dir + "/s.sock") { count in
                counts.withLock { $0.append(count) }
            }
            defer { server.close() }
            var first: SocketTestClient? = try SocketTestClient(path: server.path)
            let second = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 2 })
            server.emit(TestStates.state(1))
            #expect(first?.readLine() == TestStates.line(1))
            #expect(second.readLine() == TestStates.line(1))
            first = nil  // closes the socket: the server drops the client
            #expect(TestPaths.eventually { server.clientCount == 1 })
            server.emit(TestStates.state(2))
            #expect(second.readLine() == TestStates.line(2))
            let third = try SocketTestClient(path: server.path)
            #expect(third.readLine() == TestStates.line(2))
            #expect(TestPaths.eventually { server.clientCount == 2 })
            _ = first
            #expect(counts.withLock { $0 } == [1, 2, 1, 2])
        }
    }

    @Test func halfClosedClientKeepsReceiving() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            defer { server.close() }
            let client = try SocketTestClient(path: server.path)
            shutdown(client.fileDescriptor, Int32(SHUT_WR))
            // The server has read the end of the client's input, and kept it.
            #expect(TestPaths.eventually { server.clientsHalfClosed == 1 })
            #expect(server.clientCount == 1)
            server.emit(TestStates.state(4))
            #expect(client.readLine() == TestStates.line(4))
            #expect(server.clientCount == 1)
        }
    }

    @Test func clientsBeyondTheLimitAreToldAndClosed() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            var limits = UnixSocketServer.Limits()
            limits.maxClients = 2
            let server = try UnixSocketServer(path: dir + "/s.sock", limits: limits)
            defer { server.close() }
            let kept = try (0..<2).map { _ in try SocketTestClient(path: server.path) }
            #expect(TestPaths.eventually { server.clientCount == 2 })
            let refused = try SocketTestClient(path: server.path)
            #expect(refused.readLine()?.contains("too many clients") == true)
            #expect(refused.sawEndOfStream(timeout: 10))
            #expect(server.clientCount == 2)
            _ = kept
        }
    }

    @Test func closingDisconnectsClientsAndRemovesTheFile() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let server = try UnixSocketServer(path: dir + "/s.sock")
            let client = try SocketTestClient(path: server.path)
            #expect(TestPaths.eventually { server.clientCount == 1 })
            server.close()
            #expect(client.sawEndOfStream(timeout: 10))
            #expect(access(dir + "/s.sock", F_OK) != 0)
            server.close()  // idempotent
        }
    }
}
