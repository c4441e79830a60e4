import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceNetworkTests {
    /// Runs `body` with the URI of an iiod serving `device` (and its buffer
    /// `script`) once it accepts connections (IiodServer).
    static func withIiod(device: String, script: String? = nil, _ body: (String) throws -> Void) throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        try DeviceTestSupport.require("/usr/sbin/iiod")
        let iiod = try IiodServer(device: device, script: script)
        try withExtendedLifetime(iiod) { try body(iiod.uri) }
    }

    /// iiod serves a umockdev device on loopback; tiltd reads it with --uri ip:.
    @Test func readsADeviceServedByIiod() throws {
        try Self.withIiod(device: "onda-v975.umockdev") { uri in
            let list = try TiltdProcess.run(["list", "--json", "--uri", uri])
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
    }

    /// Buffered capture works over the network too, with the device's timestamps.
    @Test func readsABufferServedByIiod() throws {
        try Self.withIiod(device: "buffered.umockdev", script: "steady.script") { uri in
            let run = try TiltdProcess.run(["run", "--uri", uri, "--count", "3", "--no-gate"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("at \(uri) in buffer mode at 100 Hz"))
            #expect(DeviceTestSupport.times(run.stdout) == [1000.0, 1000.01, 1000.02])
        }
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
