import Foundation
import Testing

@Suite struct DeviceNetworkTests {
    /// iiod serves a umockdev device on loopback; tiltd reads it with --uri ip:.
    @Test func readsADeviceServedByIiod() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        try DeviceTestSupport.require("/usr/sbin/iiod")
        let port = try DeviceTestSupport.freePort()
        let pidFile = DeviceTestSupport.temporaryFile("iiod.pid")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-run")
        // iiod ignores SIGTERM under umockdev: remember its pid to SIGKILL it.
        server.arguments = ["--device", DeviceTestSupport.fixture("onda-v975.umockdev").path, "--",
                            "/bin/sh", "-c", "echo $$ > '\(pidFile.path)'; exec /usr/sbin/iiod -p \(port)"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
               let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
            server.waitUntilExit()
        }
        let uri = "ip:127.0.0.1:\(port)"
        // Wait (generously) until iiod accepts connections.
        var list = try TiltdProcess.run(["list", "--json", "--uri", uri])
        let deadline = Date().addingTimeInterval(30)
        while list.status != 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            list = try TiltdProcess.run(["list", "--json", "--uri", uri])
        }
        #expect(list.status == 0, "\(list.stderr)")
        // No udev over the network: the sysfs matrix applies.
        #expect(list.stdout.contains("\"mount_matrix_source\" : \"mount_matrix\""))
        #expect(list.stdout.contains("\"uri\" : \"\(uri)\""))

        let run = try TiltdProcess.run(["run", "--uri", uri, "--count", "3", "--no-gate"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("at \(uri) in poll mode at 12 Hz"))
        // Identity matrix: the Onda's x axis points up, left-up.
        #expect(DeviceTestSupport.orientations(run.stdout) == ["left-up", "left-up", "left-up"])
    }

    @Test func unreachableIiodAndBadUrisAreOneLineErrors() throws {
        let unreachable = try TiltdProcess.run(["run", "--uri", "ip:127.0.0.1:1", "--count", "1"])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("ip:127.0.0.1:1"))
        #expect(unreachable.stderr.contains("iiod"))
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
        let bad = try TiltdProcess.run(["list", "--uri", "tcp:host"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--uri tcp:host is not a libiio context URI"))
        let badRate = try TiltdProcess.run(["run", "--rate", "-3"])
        #expect(badRate.status != 0)
        #expect(badRate.stderr.contains("--rate"))
        let badMatrix = try TiltdProcess.run(["run", "--mount-matrix", "0, 1, 0; 1, 0, 0; 0, 0, 0"])
        #expect(badMatrix.status != 0)
        #expect(badMatrix.stderr.contains("--mount-matrix"))
    }
}
