import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// `tiltd replay --realtime --listen unix:PATH` end to end: the binary serves
/// the same states on the socket as on stdout, refuses to steal a live
/// socket, and removes its socket file when stopped by a signal.
@Suite(.timeLimit(.minutes(15))) struct SocketReplayTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    @Test func socketCarriesTheSameStatesAsStdout() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let tiltd = try SocketTiltdProcess(["replay", "--realtime", "--listen", "unix:\(path)", Self.sweep])
        #expect(tiltd.waitFor { access(path, F_OK) == 0 }, "socket never appeared: \(tiltd.stderr)")
        let client = try SocketTestClient(path: path)
        let received = client.readLines(quietFor: 15)  // until tiltd ends and closes the connection
        #expect(tiltd.waitUntilExit())
        #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        let printed = tiltd.stdout.split(separator: "\n").map(String.init)
        #expect(received.count >= 2)
        // A new client gets the current state, then every later one: the
        // socket's lines are exactly the tail of stdout's.
        let tail = Array(printed.suffix(received.count))
        let firstDifference = zip(tail, received).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(tail == received, "\(received.count) of \(printed.count) lines; first difference at \(firstDifference.map { "\($0.offset): stdout \($0.element.0) socket \($0.element.1)" } ?? "the end")")
        #expect(access(path, F_OK) != 0, "socket file left behind after a normal exit")
    }

    @Test func socketCarriesTheDeviceMotion() throws {
        // The same encoding as stdout: with a gyro, the motion fields.
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let ngimu = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path
        let tiltd = try SocketTiltdProcess(["replay", "--realtime", "--listen", "unix:\(path)", ngimu])
        #expect(tiltd.waitFor { access(path, F_OK) == 0 }, "socket never appeared: \(tiltd.stderr)")
        let client = try SocketTestClient(path: path)
        let received = client.readLines(quietFor: 15)
        #expect(tiltd.waitUntilExit())
        #expect(received.count >= 2)
        #expect(received.allSatisfy { $0.contains(#""attitude":["#) && $0.contains(#""gyroBias":["#) })
        #expect(Array(tiltd.stdout.split(separator: "\n").map(String.init).suffix(received.count)) == received)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func socketFileIsRemovedWhenStoppedBySignal(signal: Int32) throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let tiltd = try SocketTiltdProcess(["replay", "--realtime", "--listen", "unix:\(path)", Self.sweep])
        #expect(tiltd.waitFor { access(path, F_OK) == 0 }, "socket never appeared: \(tiltd.stderr)")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        #expect(tiltd.stop(with: signal))
        #expect(access(path, F_OK) != 0, "socket file left behind after signal \(signal)")
    }

    @Test func aLiveSocketIsNotStolenByASecondProcess() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/tiltd.sock"
        let first = try SocketTiltdProcess(["replay", "--realtime", "--listen", "unix:\(path)", Self.sweep])
        defer { first.stop() }
        #expect(first.waitFor { access(path, F_OK) == 0 })
        let second = try TiltdProcess.run(["replay", "--realtime", "--listen", "unix:\(path)", Self.sweep], timeout: 60)
        #expect(second.status != 0)
        #expect(second.stderr.contains("\(path): another process is already serving"), "\(second.stderr)")
        #expect(second.stdout.isEmpty)
        // The first still serves on its socket.
        let client = try SocketTestClient(path: path)
        #expect(client.readLine(timeout: 10)?.hasPrefix("{\"t\":") == true)
    }

    @Test func badListenArgumentsFailWithOneLine() throws {
        let tcp = try TiltdProcess.run(["replay", "--listen", "tcp:9000", Self.sweep])
        #expect(tcp.status != 0)
        #expect(tcp.stderr.contains("unix:PATH"))
        let missing = try TiltdProcess.run(["replay", "--realtime", "--listen", "unix:/no/such/dir/s.sock", Self.sweep])
        #expect(missing.status != 0)
        #expect(missing.stderr == "tiltd: error: --listen /no/such/dir/s.sock: there is no folder /no/such/dir; "
            + "create it first (mkdir -p /no/such/dir) or choose another --listen\n", "\(missing.stderr)")
        let onDemand = try TiltdProcess.run(["replay", "--realtime", "--on-demand", "--listen", "unix:/tmp/x.sock", Self.sweep])
        #expect(onDemand.status != 0)
        #expect(onDemand.stderr.contains("--on-demand"))
    }
}
