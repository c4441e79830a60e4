import Foundation
import Testing
import TiltdTestSupport

/// `--source rotation`: an HID hub's own fused quaternion, its convention
/// checked against the accelerometer at start, with a fallback that says why.
@Suite(.timeLimit(.minutes(15))) struct DeviceRotationTests {
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

    /// hid-rotation.umockdev with the hub's quaternion (x, y, z, w) turned
    /// `degrees` away from the accelerometer's upright reading, about a
    /// skew axis and with some yaw: its "up" lies `degrees` from (0, −1, 0)
    /// (the pitch π/2 − d), and no other reading of it (order, direction,
    /// axis-aligned frame) comes closer.
    static func hubDisagreeing(by degrees: Double) throws -> URL {
        let fixture = try String(contentsOf: DeviceTestSupport.fixture("hid-rotation.umockdev"), encoding: .utf8)
        func turn(_ axis: SIMD3<Double>, _ angle: Double) -> SIMD4<Double> {
            let s = sin(angle / 2)
            return SIMD4(axis.x * s, axis.y * s, axis.z * s, cos(angle / 2))
        }
        func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
        }
        let radian = Double.pi / 180, skew = 40 * radian
        let q = product(turn(SIMD3(0, 0, 1), 35 * radian),
                        product(turn(SIMD3(0, 1, 0), degrees * sin(skew) * radian),
                                turn(SIMD3(1, 0, 0), (-90 + degrees * cos(skew)) * radian)))
        let scale = 0.000030518
        let raw = [q.x, q.y, q.z, q.w].map { "\(Int(($0 / scale).rounded()))" }.joined(separator: " ")
        let text = fixture.replacingOccurrences(of: "in_rot_quaternion_raw=-23170 0 0 23170",
                                                with: "in_rot_quaternion_raw=\(raw)")
        #expect(text != fixture)
        let url = DeviceTestSupport.temporaryFile("hid-rotation-\(Int(degrees)).umockdev")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A hub's quaternion that agrees with the accelerometer
    /// within 15° at rest is the hub's own fusion, and is used as it is (the
    /// angles follow the hub, not the accelerometer); beyond 15° it is not.
    @Test(arguments: [4.0, 12.0, 20.0])
    func aQuaternionWithinFifteenDegreesOfTheAccelerometerIsUsed(degrees: Double) throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let device = try Self.hubDisagreeing(by: degrees)
        defer { try? FileManager.default.removeItem(at: device) }
        let result = try TiltdProcess.run(["run", "--source", "rotation", "--no-gate", "--count", "2"],
                                          devices: [device], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let pitches = DeviceTestSupport.states(result.stdout).compactMap { ($0["pitch"] as? NSNumber)?.doubleValue }
        #expect(pitches.count == 2)
        if degrees <= 15 {
            #expect(result.stderr.contains("using the fused rotation iio:device1 (dev_rotation), components x, y, z, w"),
                    "\(result.stderr)")
            #expect(!result.stderr.contains("using the accelerometer instead"), "\(result.stderr)")
            for pitch in pitches { #expect(abs(pitch - (Double.pi / 2 - degrees * Double.pi / 180)) < 0.005) }
        } else {
            #expect(result.stderr.contains("(closest \(Int(degrees))°, 15° needed"), "\(result.stderr)")
            for pitch in pitches { #expect(abs(pitch - Double.pi / 2) < 0.005) }
        }
    }

    @Test func aDisagreeingQuaternionFallsBackToTheAccelerometer() throws {
        // hid-hub.umockdev: the accelerometer upright, the quaternion a generic turn none of
        // whose readings comes within 15° of it.
        let result = try DeviceTestSupport.tiltd(["run", "--source", "rotation", "--no-gate", "--count", "2"],
                                                 devices: ["hid-hub.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no reading of iio:device2 (dev_rotation)'s quaternion (either component "
                                       + "order or direction, any axis-aligned frame) agrees with the accelerometer "
                                       + "iio:device0 (accel_3d) (closest 43°"), "\(result.stderr)")
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
