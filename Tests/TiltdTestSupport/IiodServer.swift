import Foundation
import Glibc

/// `iiod` serving a umockdev device on a loopback port, so that a capture
/// can be run in the test's own process (`ip:127.0.0.1:PORT`) against a fake
/// accelerometer.
public final class IiodServer {
    /// The libiio URI of the served context.
    public let uri: String
    private let process = Process()
    private let pidFile: URL

    /// Starts iiod inside umockdev-run with `device` (and a buffer `script`)
    /// from Tests/Fixtures, and waits (retrying with a deadline) until it
    /// accepts connections.
    public init(device: String, script: String? = nil) throws {
        TestTier.requireSystem(starting: "iiod under umockdev-run")
        for tool in ["/usr/bin/umockdev-run", "/usr/sbin/iiod"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw SocketTestClient.Failure(description: "\(tool) is missing: run scripts/setup.sh test")
        }
        let port = try Self.freePort()
        uri = "ip:127.0.0.1:\(port)"
        pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-iiod-\(UUID().uuidString).pid")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-run")
        var arguments = ["--device", TiltdProcess.fixtures.appendingPathComponent(device).path]
        if let script { arguments += ["-s", "/dev/iio:device0=\(TiltdProcess.fixtures.appendingPathComponent(script).path)"] }
        process.arguments = arguments + ["--", "/bin/sh", "-c", "echo $$ > '\(pidFile.path)'; exec /usr/sbin/iiod -p \(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                throw SocketTestClient.Failure(description: "iiod did not start on port \(port)")
            }
            usleep(50_000)
        }
    }

    /// SIGKILL: iiod ignores SIGTERM under umockdev.
    deinit {
        if let text = try? String(contentsOf: pidFile, encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGKILL)
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: pidFile)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw SocketTestClient.Failure(description: "no free loopback port") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}
