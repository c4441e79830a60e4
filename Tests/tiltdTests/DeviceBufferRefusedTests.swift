import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceBufferRefusedTests {
    /// Scan elements but no /dev node: the buffer cannot be enabled. auto polls
    /// and says why in one line; --mode buffer fails with that reason.
    @Test func refusedBufferFallsBackInAutoAndFailsInBufferMode() throws {
        let auto = try DeviceTestSupport.tiltd(["run", "--count", "2", "--no-gate"],
                                               devices: ["buffer-without-node.umockdev"])
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(DeviceTestSupport.orientations(auto.stdout) == ["normal", "normal"])
        let notices = auto.stderr.split(separator: "\n").filter { $0.contains("unavailable") }
        #expect(notices.count == 1)
        #expect(notices.first?.contains("/dev/iio:device0 is missing") == true)
        #expect(notices.first?.contains("polling at 100 Hz instead") == true)

        let strict = try DeviceTestSupport.tiltd(["run", "--count", "2", "--mode", "buffer"],
                                                 devices: ["buffer-without-node.umockdev"])
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderr.contains("enabling the buffer on iio:device0 (accel_3d) failed"))
        #expect(strict.stderr.contains("--mode poll"))
    }
}
