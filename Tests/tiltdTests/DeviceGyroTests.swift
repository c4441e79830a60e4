import Foundation
import Testing
import TiltdTestSupport

/// Gyroscopes under umockdev: pairing (same device, sibling, HID hub), the
/// shared-scan capture of a combined IMU with scripted motion, a gyro that
/// cannot be read, and `--no-gyro`.
@Suite(.timeLimit(.minutes(15))) struct DeviceGyroTests {
    /// The roll make-gyro-scripts.py scripted at device time `t` (seconds).
    static func scriptedRoll(_ t: Double) -> Double {
        let s = t - 1000
        return s >= 1 && s < 3 ? 0.6 * sin(2 * .pi * 0.75 * (s - 1)) : 0
    }

    /// Replays `trace` with `options` and returns the mean roll error (°)
    /// during the scripted rotation and the peak error during the shake.
    static func rollErrors(trace: URL, options: [String],
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> (rotation: Double, shake: Double) {
        let replay = try TiltdProcess.run(["replay", "--no-gate"] + options + [trace.path])
        #expect(replay.status == 0, "\(replay.stderr)", sourceLocation: sourceLocation)
        var rotation: [Double] = [], shake: [Double] = []
        for state in DeviceTestSupport.states(replay.stdout) {
            guard let t = (state["t"] as? NSNumber)?.doubleValue,
                  let roll = (state["roll"] as? NSNumber)?.doubleValue else { continue }
            let error = abs(roll - scriptedRoll(t)) * 180 / .pi
            if t >= 1001 && t < 1003 { rotation.append(error) }
            if t >= 1003 && t < 1004 { shake.append(error) }
        }
        #expect(rotation.count == 200 && shake.count == 100, sourceLocation: sourceLocation)
        return (rotation.reduce(0, +) / Double(max(rotation.count, 1)), shake.max() ?? .infinity)
    }

    /// Replays a capture of the scripted motion fused and accelerometer-only:
    /// fused follows the rotation within 1.5° on average, three times closer
    /// than accelerometer-only, and the shake moves it less than 2°.
    ///
    /// - Returns: the accelerometer-only errors.
    @discardableResult
    static func expectFusedFollowsTheScript(trace: URL, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (rotation: Double, shake: Double) {
        let fused = try rollErrors(trace: trace, options: [], sourceLocation: sourceLocation)
        let accelerometerOnly = try rollErrors(trace: trace, options: ["--no-gyro"], sourceLocation: sourceLocation)
        #expect(fused.rotation < 1.5, "fused mean error during the rotation \(fused.rotation)°",
                sourceLocation: sourceLocation)
        #expect(fused.rotation * 3 < accelerometerOnly.rotation,
                "fused \(fused.rotation)° vs accelerometer-only \(accelerometerOnly.rotation)°",
                sourceLocation: sourceLocation)
        #expect(fused.shake < 2, "fused peak error in the shake \(fused.shake)°", sourceLocation: sourceLocation)
        return accelerometerOnly
    }

    static func jsonList(_ fixture: String) throws -> [[String: Any]] {
        let result = try DeviceTestSupport.tiltd(["list", "--json"], devices: [fixture])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test func combinedDeviceIsCapturedInOneScanAndFusedFollowsTheScriptedMotion() throws {
        let trace = DeviceTestSupport.temporaryFile("combined.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try DeviceTestSupport.tiltd(["record", "--out", trace.path, "--count", "400"],
                                                 devices: ["combined-imu.umockdev"], script: "combined-imu.script")
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("for gyroscope fusion"))
        #expect(record.stderr.contains("in buffer mode at 100 Hz"))
        #expect(record.stderr.contains("with the gyroscope iio:device0 (bmi160) (same device)"))
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.hasPrefix("tiltd-trace 2\n"))
        #expect(text.contains("\n# gyro-pairing: same device\n"))
        let samples = text.split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.count == 400)
        #expect(samples.allSatisfy { $0.contains(" w ") })

        // The same capture, replayed fused and accelerometer-only.
        let accelerometerOnly = try Self.expectFusedFollowsTheScript(trace: trace)
        #expect(accelerometerOnly.shake > 5, "accelerometer-only peak error in the shake \(accelerometerOnly.shake)°")
    }

    @Test func siblingGyroIsPairedByNameAndReadInTheAccelerometersFrame() throws {
        let list = try Self.jsonList("sibling-pair.umockdev")
        #expect(list.count == 1)
        let gyro = try #require(list.first?["gyro"] as? [String: Any])
        #expect(gyro["id"] as? String == "iio:device1")
        #expect(gyro["name"] as? String == "lsm6dsm_gyro")
        #expect(gyro["pairing"] as? String == "sibling")
        #expect(gyro["mount_matrix_source"] as? String == "in_anglvel_mount_matrix")
        #expect(gyro["scale"] as? [Double] == [0.000153, 0.000153, 0.000153])

        let text = try DeviceTestSupport.tiltd(["list"], devices: ["sibling-pair.umockdev"])
        #expect(text.stdout.contains("gyroscope     iio:device1  lsm6dsm_gyro  (sibling)"))

        let trace = DeviceTestSupport.temporaryFile("sibling.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try DeviceTestSupport.tiltd(["record", "--out", trace.path, "--count", "3"],
                                                 devices: ["sibling-pair.umockdev"])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("with the gyroscope iio:device1 (lsm6dsm_gyro) (sibling)"))
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        // raw (1000, −2000, 0) × 0.000153 through "0, 1, 0; 1, 0, 0; 0, 0, -1".
        #expect(lines.filter { $0.hasPrefix("s ") && $0.hasSuffix(" w -0.306 0.153 0 1000 -2000 0") }.count == 3)
        #expect(lines.contains("# gyro-sampling-frequency-hz: 104"))
    }

    @Test func hidGyroIsPairedWithinItsOwnHub() throws {
        let list = try Self.jsonList("hid-hub.umockdev")
        let accelerometer = try #require(list.first { $0["name"] as? String == "accel_3d" })
        let gyro = try #require(accelerometer["gyro"] as? [String: Any])
        #expect(gyro["id"] as? String == "iio:device1")
        #expect(gyro["pairing"] as? String == "same hub")
        #expect(gyro["mount_matrix_source"] as? String == "the accelerometer's (identity (none found))")
    }

    @Test func anUnreadableGyroFallsBackToTheAccelerometerAndSaysSo() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--no-gate", "--count", "3"],
                                                 devices: ["gyro-unreadable.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceTestSupport.states(result.stdout).count == 3)
        let lost = result.stderr.split(separator: "\n").filter { $0.contains("lost the gyroscope iio:device1") }
        #expect(lost.count == 1)
        #expect(lost.first?.hasSuffix("continuing with the accelerometer alone") == true)
    }

    @Test func noGyroKeepsTheAccelerometerOnlyCapture() throws {
        let trace = DeviceTestSupport.temporaryFile("nogyro.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try DeviceTestSupport.tiltd(["record", "--no-gyro", "--out", trace.path, "--count", "2"],
                                                 devices: ["sibling-pair.umockdev"])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(!record.stderr.contains("gyroscope"))
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.hasPrefix("tiltd-trace 1\n") && !text.contains(" w "))
        let run = try DeviceTestSupport.tiltd(["run", "--no-gyro", "--count", "2"], devices: ["sibling-pair.umockdev"])
        #expect(run.status == 0 && !run.stderr.contains("gyroscope"), "\(run.stderr)")
    }
}
