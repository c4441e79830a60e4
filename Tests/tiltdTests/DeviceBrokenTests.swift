import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceBrokenTests {
    /// An accelerometer with an invalid mount matrix is skipped with a
    /// message naming it and the problem; the good one is still listed and read.
    @Test func brokenAccelerometerIsSkippedNotFatal() throws {
        let list = try DeviceTestSupport.tiltd(["list"], devices: ["broken-matrix.umockdev"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("* iio:device1  accel_good"))
        #expect(!list.stdout.contains("iio:device0"))
        #expect(list.stderr.contains("skipping an accelerometer: iio:device0 (accel_bad) mount_matrix: invalid mount matrix"))

        let run = try DeviceTestSupport.tiltd(["run", "--count", "1"], devices: ["broken-matrix.umockdev"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("reading iio:device1 (accel_good)"))
        #expect(DeviceTestSupport.orientations(run.stdout) == ["normal"])

        let asked = try DeviceTestSupport.tiltd(["run", "--count", "1", "--device", "iio:device0"],
                                                devices: ["broken-matrix.umockdev"])
        #expect(asked.status == 1)
        #expect(asked.stderr.contains("invalid mount matrix"))
        #expect(asked.stderr.contains("no accelerometer on local: matches --device iio:device0"))
    }
}
