import Foundation
import Testing
import TiltdTestSupport

/// A sibling gyroscope captured through its own buffer and merged with the
/// accelerometer's by device timestamp (sibling-buffered.umockdev, scripts
/// from make-gyro-scripts.py), and a gyro buffer that dies mid-run.
@Suite(.timeLimit(.minutes(15))) struct DeviceGyroBufferTests {
    static func tiltd(_ arguments: [String], gyroScript: String) throws -> TiltdProcess.Result {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        return try TiltdProcess.run(
            arguments, devices: [DeviceTestSupport.fixture("sibling-buffered.umockdev")],
            scripts: [("/dev/iio:device0", DeviceTestSupport.fixture("sibling-accel.script")),
                      ("/dev/iio:device1", DeviceTestSupport.fixture(gyroScript))])
    }

    /// The body rate the script gives the gyro at device time `t` (seconds): (0, −roll′, 0).
    static func scriptedRateY(_ t: Double) -> Double {
        let s = t - 1000
        guard s >= 1 && s < 3 else { return 0 }
        return -0.6 * 2 * .pi * 0.75 * cos(2 * .pi * 0.75 * (s - 1))
    }

    @Test func siblingGyroBufferIsMergedByTimestampAndFusedFollowsTheScriptedMotion() throws {
        let trace = DeviceTestSupport.temporaryFile("sibling-buffered.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try Self.tiltd(["record", "--out", trace.path, "--count", "400"], gyroScript: "sibling-gyro.script")
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains(
            "capturing the gyroscope iio:device1 (lsm6dsm_gyro) through its own buffer, merged by device timestamp"))
        #expect(record.stderr.contains("in buffer mode at 104 Hz"))
        #expect(!record.stderr.contains("lost the gyroscope"), "\(record.stderr)")

        // Each sample's gyro is the scripted rate at the accelerometer's
        // timestamp: interpolated between the gyro scans 5 ms either side,
        // or held from one of them when the next had not arrived yet.
        let samples = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.count == 400)
        var checked = 0, interpolated = 0, far: [String] = []
        for line in samples {
            let fields = line.split(separator: " ")
            guard let w = fields.firstIndex(of: "w"), let time = Double(fields[1]),
                  let rateY = Double(fields[w + 2]), let rawY = Double(fields[w + 5]) else { continue }
            let t = time / 1e9
            checked += 1
            if rawY != rawY.rounded() { interpolated += 1 }  // a half count: the mean of two scans
            // Holding costs at most 15 ms of change (|rate′| ≤ 0.6·(1.5π)² ≈ 13.3
            // rad/s², so 0.2 rad/s); the rate jumps where the rotation starts
            // and stops, so the scans around 1 s and 3 s are skipped.
            let s = t - 1000
            if abs(s - 1) < 0.02 || abs(s - 3) < 0.02 { continue }
            if abs(rateY - Self.scriptedRateY(t)) > 0.21 { far.append(String(line)) }
        }
        // A sample the gyro's scans do not cover within the 3 ms wait (its
        // playback lagging on a loaded machine) carries no reading by design
        // (DeviceGyroLagTests); almost all are covered.
        #expect(checked >= 360, "samples with a gyro reading: \(checked)")
        #expect(far.isEmpty, "gyro readings far from the scripted rate: \(far.prefix(3))")
        #expect(interpolated > 0, "no sample was interpolated between two gyro scans")

        try DeviceGyroTests.expectFusedFollowsTheScript(trace: trace)
    }

    @Test func aGyroBufferThatDiesFallsBackToTheAccelerometerAloneAndSaysSoOnce() throws {
        let trace = DeviceTestSupport.temporaryFile("gyro-dies.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try Self.tiltd(["record", "--out", trace.path, "--count", "350"],
                                    gyroScript: "sibling-gyro-dies.script")
        #expect(record.status == 0, "\(record.stderr)")
        let lost = record.stderr.split(separator: "\n").filter { $0.contains("lost the gyroscope iio:device1") }
        #expect(lost.count == 1, "\(record.stderr)")
        #expect(lost.first?.contains("delivered nothing for 1 s") == true)
        #expect(lost.first?.hasSuffix("continuing with the accelerometer alone") == true)

        // Streaming goes on: every sample recorded, the gyro on those its
        // scans cover (its script ends at 1 s: a rate from before then is
        // not fused later), none after; the loss is said at the 1 s limit.
        let samples = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.count == 350)
        let withGyro = samples.filter { $0.contains(" w ") }
        let lastWithGyro = withGyro.last.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 / 1e9 - 1000 } ?? 0
        #expect(withGyro.count >= 90 && withGyro.count <= 110, "samples with a gyro: \(withGyro.count)")
        #expect(lastWithGyro > 0.95 && lastWithGyro < 1.05, "last gyro reading at \(lastWithGyro) s")
        #expect(samples.drop(while: { $0.contains(" w ") }).allSatisfy { !$0.contains(" w ") })

        let run = try Self.tiltd(["run", "--no-gate", "--count", "300"], gyroScript: "sibling-gyro-dies.script")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(DeviceTestSupport.states(run.stdout).count == 300)
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("lost the gyroscope") }.count == 1)
    }
}
