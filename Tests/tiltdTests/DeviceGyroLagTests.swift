import Foundation
import Testing
import TiltdTestSupport

/// A sibling gyroscope whose buffer falls behind the accelerometer's
/// (sibling-gyro-stalls.script: a twitch there and back ending at 1 s, then
/// every scan 500 ms late) while the accelerometer is flat and still
/// (sibling-accel-still.script). The merge must not fuse a rate that does
/// not cover the accelerometer's sample: holding the twitch's last rate
/// through the stall would turn the output by about 14° though nothing moved.
@Suite(.timeLimit(.minutes(15))) struct DeviceGyroLagTests {
    static func tiltd(_ arguments: [String]) throws -> TiltdProcess.Result {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        return try TiltdProcess.run(
            arguments, devices: [DeviceTestSupport.fixture("sibling-buffered.umockdev")],
            scripts: [("/dev/iio:device0", DeviceTestSupport.fixture("sibling-accel-still.script")),
                      ("/dev/iio:device1", DeviceTestSupport.fixture("sibling-gyro-stalls.script"))])
    }

    @Test func aStalledGyroIsNotFusedAndTheOutputDoesNotDrift() throws {
        let run = try Self.tiltd(["run", "--no-gate", "--count", "280"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("capturing the gyroscope iio:device1 (lsm6dsm_gyro) through its own buffer"),
                "\(run.stderr)")
        let states = DeviceTestSupport.states(run.stdout)
        #expect(states.count == 280)
        var worst = 0.0, worstAt = 0.0
        for state in states {
            guard let t = (state["t"] as? NSNumber)?.doubleValue,
                  let roll = (state["roll"] as? NSNumber)?.doubleValue,
                  let pitch = (state["pitch"] as? NSNumber)?.doubleValue else { continue }
            let error = max(abs(roll), abs(pitch)) * 180 / .pi
            if error > worst { (worst, worstAt) = (error, t - 1000) }
        }
        // The twitch itself is fused (its scans arrive on time): ±0.86° at most.
        #expect(worst < 1.5, "the still device's output drifted \(worst)° at \(worstAt) s")

        // The gyro stays 500 ms behind: said once, and it is not "lost"
        // (it still delivers; the silence limit is 1 s).
        let lags = run.stderr.split(separator: "\n").filter { $0.contains("lags the accelerometer") }
        #expect(lags.count == 1, "\(run.stderr)")
        #expect(lags.first?.contains(
            "the gyroscope iio:device1 (lsm6dsm_gyro) lags the accelerometer by more than 3 ms") == true)
        #expect(lags.first?.hasSuffix("samples it does not cover are fused from the accelerometer alone") == true)
        #expect(!run.stderr.contains("lost the gyroscope"), "\(run.stderr)")
    }

    /// The trace says which samples had a gyro reading: those the gyro
    /// covered (before the stall), none of those it did not (after it).
    @Test func samplesTheGyroDoesNotCoverAreRecordedWithoutAGyroReading() throws {
        let trace = DeviceTestSupport.temporaryFile("gyro-stalls.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try Self.tiltd(["record", "--out", trace.path, "--count", "280"])
        #expect(record.status == 0, "\(record.stderr)")
        let samples = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.count == 280)
        var covered = 0, uncovered = 0, heldTwitch: [String] = []
        for line in samples {
            guard let time = Double(line.split(separator: " ")[1]) else { continue }
            let s = time / 1e9 - 1000
            let fields = line.split(separator: " ")
            if let w = fields.firstIndex(of: "w") {
                if s < 0.9 { covered += 1 }
                // A rate from the twitch (|0.5| rad/s) fused after 1.02 s was held through the stall.
                if s > 1.02, let rateY = Double(fields[w + 2]), abs(rateY) > 0.1 { heldTwitch.append(String(line)) }
            } else if s > 1.1 && s < 2.7 {
                uncovered += 1
            }
        }
        #expect(covered >= 80, "samples before the stall with a gyro reading: \(covered)")
        // How many depends on how far umockdev's two playback threads drift
        // apart on a loaded machine (they may close most of the 500 ms: a
        // loaded run saw 9 where a quiet one sees about 50); some must be.
        #expect(uncovered >= 1, "samples during the lag without one: \(uncovered)")
        #expect(heldTwitch.isEmpty, "the twitch's rate held through the stall: \(heldTwitch.prefix(3))")
    }
}
