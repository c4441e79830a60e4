import Foundation
import Testing
import TiltdTestSupport

/// An HID sensor hub (hid-hub-buffered.umockdev): `accel_3d` and `gyro_3d`
/// each captured through its own buffer (HID's le:s32/32 scans, triggers
/// `accel_3d-dev0` and `gyro_3d-dev1`) and merged by device timestamp, with
/// `dev_rotation` beside them; the scripts (hid-accel.script,
/// hid-gyro.script) carry the scripted motion of combined-imu.script.
@Suite(.timeLimit(.minutes(15))) struct DeviceHIDGyroBufferTests {
    @Test func hubGyroBufferIsPairedMergedAndFusedFollowsTheScriptedMotion() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let trace = DeviceTestSupport.temporaryFile("hid-buffered.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        // hid-gyro.script hands umockdev every gyro scan at once, so the
        // gyro's buffer is never behind the accelerometer's however the
        // machine schedules umockdev's two script threads: every sample can
        // be paired (a gyro that lags is DeviceGyroLagTests' case).
        let record = try recordHub(trace)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains(
            "capturing the gyroscope iio:device1 (gyro_3d) through its own buffer, merged by device timestamp"),
                "\(record.stderr)")
        #expect(record.stderr.contains("in buffer mode at 100 Hz"), "\(record.stderr)")
        #expect(!record.stderr.contains("lost the gyroscope"), "\(record.stderr)")

        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.contains("\n# gyro-pairing: same hub\n"), "\(text.prefix(800))")
        let samples = text.split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.count == 400)
        // Each gyro reading is the scripted rate at the accelerometer's time
        // (HID counts of 0.01°/s), away from where the rotation starts and stops.
        var far: [String] = [], withGyro = 0
        for line in samples {
            let fields = line.split(separator: " ")
            guard let w = fields.firstIndex(of: "w"), let time = Double(fields[1]),
                  let rateY = Double(fields[w + 2]) else { continue }
            withGyro += 1
            let s = time / 1e9 - 1000
            if abs(s - 1) < 0.02 || abs(s - 3) < 0.02 { continue }
            if abs(rateY - DeviceGyroBufferTests.scriptedRateY(time / 1e9)) > 0.21 { far.append(String(line)) }
        }
        #expect(withGyro >= 390, "samples with a gyro reading: \(withGyro)")
        #expect(far.isEmpty, "gyro readings far from the scripted rate: \(far.prefix(3))")

        try DeviceGyroTests.expectFusedFollowsTheScript(trace: trace)
    }

    private func recordHub(_ trace: URL) throws -> TiltdProcess.Result {
        try? FileManager.default.removeItem(at: trace)
        return try TiltdProcess.run(
            ["record", "--out", trace.path, "--count", "400"],
            devices: [DeviceTestSupport.fixture("hid-hub-buffered.umockdev")],
            scripts: [("/dev/iio:device0", DeviceTestSupport.fixture("hid-accel.script")),
                      ("/dev/iio:device1", DeviceTestSupport.fixture("hid-gyro.script"))])
    }
}
