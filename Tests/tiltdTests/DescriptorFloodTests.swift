import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// tiltd under `ulimit -n 64` with the socket and DSU servers flooded:
/// it refuses connections before it runs out of descriptors (running out
/// crashes libdispatch's worker monitor with SIGILL), says so in a few
/// lines rather than one per connection, and serves again afterwards.
@Suite(.timeLimit(.minutes(15))) struct DescriptorFloodTests {
    /// A unix stream connection to `path`, or -1.
    static func connectUnix(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if connected != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    @Test func aConnectionFloodAtSixtyFourDescriptorsNeitherCrashesNorFloodsTheLog() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let launcher = dir + "/limit64"
        try "#!/bin/sh\nulimit -n 64 || exit 99\nexec \"$@\"\n".write(toFile: launcher, atomically: true, encoding: .utf8)
        chmod(launcher, 0o755)
        let socketPath = dir + "/s", recording = try DSUTestClient.longRecording()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let tiltd = try SocketTiltdProcess(launcher: launcher,
                                           ["replay", recording, "--realtime", "--listen", "unix:\(socketPath)", "--dsu", "0"])
        let ready = try await TestThreadExecutor.offPool {
            tiltd.waitFor { DSUTestClient.port(in: tiltd.stderr) != nil && tiltd.stderr.contains("serving states") }
        }
        try #require(ready, "\(tiltd.stderr)")
        let port = try #require(DSUTestClient.port(in: tiltd.stderr))

        // 100 socket connections held, 20 DSU subscribers that never read.
        var held: [Int32] = []
        for _ in 0..<100 { held.append(Self.connectUnix(socketPath)) }
        defer { for fd in held where fd >= 0 { close(fd) } }
        let request = DSUTestClient.request(type: 0x100002, message: [0, 0, 0, 0, 0, 0, 0, 0], id: 9)
        let subscribers = try (0..<20).map { _ in try DSUClientBehaviourTests.Squatter(port: port) }
        for subscriber in subscribers { subscriber.send(request) }

        // Then connect and close every 2 ms for 30 s.
        let flooded = try await TestThreadExecutor.offPool { () -> Int in
            var connections = 0
            let end = Date().addingTimeInterval(30)
            while Date() < end && tiltd.process.isRunning {
                let fd = Self.connectUnix(socketPath)
                if fd >= 0 {
                    connections += 1
                    close(fd)
                }
                if connections % 250 == 0 { for subscriber in subscribers { subscriber.send(request) } }
                usleep(2_000)
            }
            return connections
        }
        #expect(tiltd.process.isRunning, "tiltd ended (status \(tiltd.process.terminationStatus)): \(tiltd.stderr.suffix(2_000))")
        #expect(flooded > 1_000)
        for fd in held where fd >= 0 { close(fd) }
        held.removeAll()

        // It serves a new client again once the flood has gone.
        let served = try await TestThreadExecutor.offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let client = try? SocketTestClient(path: socketPath),
                   let line = client.readLine(timeout: 5), line.hasPrefix("{\"t\":") { return true }
                usleep(100_000)
            }
            return false
        }
        #expect(served, "\(tiltd.stderr.suffix(2_000))")
        let lines = tiltd.stderr.split(separator: "\n")
        #expect(lines.count < 40, "\(lines.count) log lines: \(lines.prefix(40).joined(separator: "\n"))")
        #expect(!tiltd.stderr.contains("F_DUPFD"), "\(tiltd.stderr.suffix(2_000))")
        let stopped = try await TestThreadExecutor.offPool { tiltd.stop(with: SIGTERM) }
        #expect(stopped && tiltd.process.terminationStatus == 0, "\(tiltd.stderr.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }
}
