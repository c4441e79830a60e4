import Foundation
import Testing
import TiltdTestSupport

/// Polled capture keeps the three raw attribute files open and reads them
/// with pread (Sources/Devices/IIO/PolledReader.swift): values must still
/// follow the device, and a file replaced under it must be reopened.
@Suite(.timeLimit(.minutes(15))) struct DevicePolledFileTests {
    /// Runs Tests/Fixtures/poll-change.py on vectors.umockdev's device0
    /// (0, −256, 0): normal, until in_accel_y_raw becomes 256: bottom-up.
    private func changeWhileReading(_ how: String, environment: [String: String] = [:]) throws
        -> TiltdProcess.Result {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        try DeviceTestSupport.require("/usr/bin/python3")
        return try DeviceTestSupport.run(
            ["/usr/bin/umockdev-run", "--device", DeviceTestSupport.fixture("vectors.umockdev").path, "--",
             "/usr/bin/python3", DeviceTestSupport.fixture("poll-change.py").path, how, "256", "bottom-up", "--",
             TiltdProcess.binary.path, "run", "--device", "iio:device0", "--mode", "poll", "--rate", "50",
             "--no-gate"],
            environment: environment, timeout: 120)
    }

    /// "inplace": the value changes under the open file (as sysfs does);
    /// "replace": a new file is renamed over it (umockdev's set_attribute),
    /// which the reader must notice and reopen.
    @Test(arguments: ["inplace", "replace"])
    func theReadingFollowsTheChangedValue(how: String) throws {
        let result = try changeWhileReading(how)
        #expect(result.status == 0, "\(result.stderr)")
        let orientations = DeviceTestSupport.orientations(result.stdout)
        #expect(orientations.first == "normal")
        #expect(orientations.last == "bottom-up")
    }

    /// umockdev logs every redirected open with UMOCKDEV_DEBUG=path: each
    /// raw file is opened once for the whole run, not once per sample (y is
    /// left out: poll-change.py opens it too, to write it).
    @Test func eachRawFileIsOpenedOncePerRun() throws {
        let result = try changeWhileReading("inplace", environment: ["UMOCKDEV_DEBUG": "path"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceTestSupport.states(result.stdout).count >= 4)
        for axis in ["x", "z"] {
            let opens = result.stderr.split(separator: "\n").filter {
                $0.contains("open") && $0.hasSuffix("iio:device0/in_accel_\(axis)_raw")
            }
            #expect(opens.count == 1, "in_accel_\(axis)_raw opened \(opens.count) times")
        }
    }
}
