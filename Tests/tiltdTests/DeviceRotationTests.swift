import Foundation
import Testing
import TiltdTestSupport

/// `--source rotation`: an HID hub's own fused quaternion, its convention
/// checked against the accelerometer at start, with a fallback that says why.
@Suite struct DeviceRotationTests {
    @Test func listShowsTheHubsRotation() throws {
        let result = try DeviceTestSupport.tiltd(["list", "--json"], devices: ["hid-rotation.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let rotation = try #require(list.first?["rotation"] as? [String: Any])
        #expect(rotation["id"] as? String == "iio:device1")
        #expect(rotation["name"] as? String == "dev_rotation")
        #expect(rotation["scale"] as? Double == 0.000030518)
        let text = try DeviceTestSupport.tiltd(["list"], devices: ["hid-rotation.umockdev"])
        #expect(text.stdout.contains("rotation      iio:device1  dev_rotation  fused quaternion"))
    }

    @Test func anAgreeingQuaternionDrivesTheAngles() throws {
        // Quaternion (x, y, z, w) = (−0.707, 0, 0, 0.707): upright, as the accelerometer reads.
        let result = try DeviceTestSupport.tiltd(["run", "--source", "rotation", "--no-gate", "--count", "2"],
                                                 devices: ["hid-rotation.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("using the fused rotation iio:device1 (dev_rotation), components x, y, z, w"))
        #expect(result.stderr.contains("angles from the fused rotation iio:device1"))
        let states = DeviceTestSupport.states(result.stdout)
        #expect(states.count == 2)
        for state in states {
            let pitch = try #require((state["pitch"] as? NSNumber)?.doubleValue)
            #expect(abs(pitch - Double.pi / 2) < 0.01)
        }
        let trace = DeviceTestSupport.temporaryFile("rotation.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try DeviceTestSupport.tiltd(["record", "--source", "rotation", "--out", trace.path, "--count", "1"],
                                                 devices: ["hid-rotation.umockdev"])
        #expect(record.status == 0, "\(record.stderr)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.contains("\n# source: fused rotation iio:device1 (dev_rotation), components x, y, z, w\n"))
    }

    @Test func aDisagreeingQuaternionFallsBackToTheAccelerometer() throws {
        // hid-hub.umockdev: the quaternion says flat, the accelerometer upright.
        let result = try DeviceTestSupport.tiltd(["run", "--source", "rotation", "--no-gate", "--count", "2"],
                                                 devices: ["hid-hub.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no component order of iio:device2 (dev_rotation)'s quaternion agrees with "
                                       + "the accelerometer iio:device0 (accel_3d) (closest 90°"))
        #expect(result.stderr.contains("using the accelerometer instead"))
        #expect(result.stderr.contains("with the gyroscope iio:device1 (gyro_3d) (same hub)"))
        #expect(DeviceTestSupport.states(result.stdout).count == 2)
    }

    @Test func noRotationOnTheHubFallsBackToTheAccelerometer() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--source", "rotation", "--count", "1"],
                                                 devices: ["sibling-pair.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("iio:device0 (lsm6dsm_accel) has no fused rotation (HID dev_rotation) on its hub; "
                                       + "using the accelerometer instead"))
    }
}
