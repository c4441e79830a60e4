import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// The socket under the lifecycle, end to end: start-up races, SIGHUP with
/// and without `nohup`, SIGTERM under load, one log format. Readiness is the
/// ready line or a retried connect with a deadline, never a fixed sleep.
@Suite(.timeLimit(.minutes(15))) struct SocketLifecycleTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path
    static let refusal = "another process is already serving states on this socket"

    static func replay(_ path: String, _ extra: [String] = []) -> [String] {
        ["replay", "--realtime", "--listen", "unix:\(path)"] + extra + [recording]
    }

    /// True once tiltd said it serves `path` (printed after it listens).
    static func ready(_ tiltd: SocketTiltdProcess, _ path: String) -> Bool {
        tiltd.waitFor { tiltd.stderr.contains("serving states on unix:\(path)") }
    }

    @Test(arguments: 1...3)
    func twoDaemonsStartingAtOnceOnOnePathOneWins(round: Int) throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let pair = try [SocketTiltdProcess(Self.replay(path)), SocketTiltdProcess(Self.replay(path))]
        // The loser stops at once; the winner serves for ten seconds.
        #expect(TestPaths.eventually(60) { pair.contains { !$0.process.isRunning } }, "both still running")
        guard let loser = pair.first(where: { !$0.process.isRunning }),
              let winner = pair.first(where: { $0.process.isRunning }) else {
            Issue.record("both ended: \(pair.map(\.stderr))")
            return
        }
        loser.waitUntilExit()
        #expect(loser.process.terminationStatus == 1)
        #expect(loser.stderr.contains("\(path): \(Self.refusal)"), "\(loser.stderr)")
        #expect(loser.stdout.isEmpty)
        #expect(Self.ready(winner, path), "\(winner.stderr)")
        // The winner's file survived and serves.
        let client = try SocketTestClient(path: path)
        #expect(client.readLine(timeout: 10)?.hasPrefix("{\"t\":") == true)
        #expect(winner.stop(with: SIGTERM))
        #expect(winner.process.terminationStatus == 0, "\(winner.stderr)")
        #expect(access(path, F_OK) != 0 && access(path + ".lock", F_OK) != 0, "files left behind")
    }

    @Test func sighupUnderNohupIsIgnoredAndDeletesNothing() throws {
        try DeviceTestSupport.require("/usr/bin/nohup")
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        // nohup sets SIGHUP to ignored and execs tiltd: same pid.
        let tiltd = try SocketTiltdProcess(launcher: "/usr/bin/nohup", Self.replay(path))
        defer { tiltd.stop(with: SIGKILL) }
        #expect(Self.ready(tiltd, path), "\(tiltd.stderr)")
        let client = try SocketTestClient(path: path)
        #expect(client.readLine(timeout: 10) != nil)
        // An ignored signal is discarded when sent: if tiltd handled it, the
        // stream would end within milliseconds; it keeps flowing.
        kill(tiltd.process.processIdentifier, SIGHUP)
        var count = 0
        let after = client.readLines(quietFor: 5) { _ in count += 1; return count == 30 }
        #expect(after.count == 30, "the stream ended after SIGHUP: \(tiltd.stderr)")
        #expect(tiltd.process.isRunning)
        #expect(access(path, F_OK) == 0, "SIGHUP deleted the socket file")
        #expect(tiltd.stop(with: SIGTERM, within: 1))
        #expect(access(path, F_OK) != 0)
    }

    @Test func sighupWithoutNohupStopsCleanly() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let tiltd = try SocketTiltdProcess(Self.replay(path))
        #expect(Self.ready(tiltd, path), "\(tiltd.stderr)")
        #expect(tiltd.stop(with: SIGHUP))
        #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        #expect(access(path, F_OK) != 0 && access(path + ".lock", F_OK) != 0)
    }

    @Test func sigtermEndsWithinOneSecondWhileServingUnderLoad() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let tiltd = try SocketTiltdProcess(Self.replay(path, ["--no-gate"]))
        defer { tiltd.stop(with: SIGKILL) }
        #expect(Self.ready(tiltd, path), "\(tiltd.stderr)")
        // Readers on threads of their own, and clients that never read.
        let readers = try (0..<8).map { _ in try SocketTestClient(path: path) }
        let stalled = try (0..<8).map { _ in try SocketTestClient(path: path, receiveBufferBytes: 4096) }
        // States flow before the signal (a client of its own: each reader
        // belongs to its thread).
        let probe = try SocketTestClient(path: path)
        #expect(probe.readLine(timeout: 10) != nil)
        let threads = readers.map { client in Thread { _ = client.readLines(quietFor: 30) } }
        threads.forEach { $0.start() }
        #expect(tiltd.stop(with: SIGTERM, within: 1), "SIGTERM took longer than 1 s")
        #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        #expect(access(path, F_OK) != 0)
        // One format on stderr.
        for line in tiltd.stderr.split(separator: "\n") {
            #expect(line.hasPrefix("tiltd: "), "\(line)")
        }
        _ = stalled
    }

    @Test func anUnknownSocketGroupIsAUsageError() throws {
        let result = try TiltdProcess.run(["replay", "--listen", "unix:/tmp/x.sock", "--socket-group",
                                           "no-such-group-here", Self.recording])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--socket-group no-such-group-here: no such group"))
    }
}
