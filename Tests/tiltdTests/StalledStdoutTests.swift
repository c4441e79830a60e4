import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// Standard output into a pipe that nobody reads (`tiltd … | sleep 600`, a
/// terminal's Ctrl-S): the other consumers go on, and SIGTERM still stops
/// tiltd with its usual clean-up and status.
@Suite(.timeLimit(.minutes(15))) struct StalledStdoutTests {
    @Test func aPipeNobodyReadsStallsNeitherTheSocketNorSIGTERM() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/s", recording = try DSUTestClient.longRecording()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[1], 1031, Int32(4096))  // F_SETPIPE_SZ: one page, full within a second
        let tiltd = try SocketTiltdProcess(["replay", recording, "--realtime", "--no-gate", "--listen", "unix:\(socketPath)"],
                                           standardOutput: FileHandle(fileDescriptor: fds[1], closeOnDealloc: false))
        close(fds[1])
        let ready = try await TestThreadExecutor.offPool { tiltd.waitFor { tiltd.stderr.contains("serving states") } }
        try #require(ready, "\(tiltd.stderr)")

        // 500 states in a row on the socket (10 s of the 50 Hz recording),
        // well past the point where the pipe and stdout's mailbox are full.
        let times = try await TestThreadExecutor.offPool { () -> [Double] in
            let client = try SocketTestClient(path: socketPath)
            var times: [Double] = []
            while times.count < 500, let line = client.readLine(timeout: 30) {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let t = (object?["t"] as? NSNumber)?.doubleValue { times.append(t) }
            }
            return times
        }
        #expect(times.count == 500, "the socket stopped after \(times.count) states: \(tiltd.stderr)")
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 > 0 && $0 < 0.05 }, "a gap in the socket's states: \(steps.filter { $0 >= 0.05 })")
        #expect(tiltd.stderr.contains("standard output is not being read: dropping states until it is"), "\(tiltd.stderr)")

        // SIGTERM with stdout still blocked: the usual stop.
        let stopped = try await TestThreadExecutor.offPool { tiltd.stop(with: SIGTERM, within: 10) }
        #expect(stopped, "tiltd did not end within 10 s of SIGTERM: \(tiltd.stderr)")
        #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        #expect(tiltd.stderr.contains("SIGTERM: stopping"), "\(tiltd.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }
}
