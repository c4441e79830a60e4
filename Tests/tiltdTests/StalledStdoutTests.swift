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
        // The stop waited for standard output's reader only as long as a
        // stop by a signal does (StdoutSink.stopWait), then gave up on it.
        #expect(tiltd.stderr.contains("standard output was not read for 0.5 seconds; the last states were not written"),
                "\(tiltd.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    /// A replay as fast as it goes wants every line: into a one-page pipe
    /// its writes wait for the reader, and nothing is dropped.
    @Test func aReplayIntoASmallPipeWaitsForItsReaderAndLosesNothing() async throws {
        let recording = try DSUTestClient.longRecording()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let reference = try await TestThreadExecutor.offPool {
            try TiltdProcess.run(["replay", recording, "--no-gate"], timeout: 300)
        }
        try #require(reference.status == 0, "\(reference.stderr)")
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[1], 1031, Int32(4096))  // F_SETPIPE_SZ: one page
        let tiltd = try SocketTiltdProcess(["replay", recording, "--no-gate"],
                                           standardOutput: FileHandle(fileDescriptor: fds[1], closeOnDealloc: false))
        close(fds[1])
        let reader = fds[0]
        let received = try await TestThreadExecutor.offPool { () -> [UInt8] in
            defer { close(reader) }
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 60_000)  // a deadline: 60 s without a byte ends the read
                if polled < 0 && errno == EINTR { continue }
                if polled <= 0 { break }
                let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count > 0 { bytes += chunk[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
            }
            return bytes
        }
        let ended = try await TestThreadExecutor.offPool { tiltd.waitUntilExit(within: 60) }
        #expect(ended && tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.count > 100_000, "far more than the pipe holds")
        #expect(text == reference.stdout, "\(text.split(separator: "\n").count) lines against \(reference.stdout.split(separator: "\n").count)")
    }
}
