import Foundation
import Testing
import TiltdTestSupport

/// A pad node that hands tiltd part of an `input_event` (ds4-split.script:
/// the DualShock 4's scripted motion with every SYN_REPORT arriving in two
/// reads, 1 ms apart). The kernel never does this, but umockdev's pty does
/// on a loaded machine; libevdev's own read returns EINVAL there and drops
/// what it read (see Sources/Devices/Evdev/PadEventBuffer.swift). tiltd
/// keeps the partial event and completes it with the next read: no report
/// is lost and the node is never reopened.
@Suite(.timeLimit(.minutes(15))) struct PadPartialEventTests {
    @Test func reportsSplitAcrossReadsAreAllReadWithoutReopening() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let node = PadTestSupport.Pad.ds4.node
        let argv = ["--device", DeviceTestSupport.fixture("ds4-motion.umockdev").path,
                    "--ioctl", "\(node)=\(DeviceTestSupport.fixture("ds4-motion.ioctl").path)",
                    "--script", "\(node)=\(DeviceTestSupport.fixture("ds4-split.script").path)",
                    "--", TiltdProcess.binary.path,
                    "run", "--device", node, "--no-gate", "--count", "300"]
        let result = try TiltdProcess.execute(URL(fileURLWithPath: "/usr/bin/umockdev-run"), argv,
                                              environment: [:], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("lost "), "\(result.stderr)")
        #expect(!result.stderr.contains("Invalid argument"), "\(result.stderr)")
        // One state per report: all 300 of the script, in order, following the motion.
        let times = DeviceTestSupport.times(result.stdout)
        #expect(times.count == 300)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let angles = PadTestSupport.angles(result.stdout)
        let last = try #require(angles.last)
        #expect(abs((angles.map(\.roll).max() ?? 0) - 0.5) < PadDeviceTests.angleTolerance)
        #expect(abs(last.pitch - 0.6) < PadDeviceTests.angleTolerance)
    }
}
