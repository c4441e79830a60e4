@testable import Bus
import Knob
import Motion
import Testing

/// The values behind net.tiltd.Tilt1's properties, without a bus.
@Suite(.timeLimit(.minutes(2))) struct TiltPropertiesTests {
    @Test func tiltPositionUsesIIOSensorProxyThresholds() {
        #expect(TiltPosition(elevationDegrees: 0) == .vertical)
        #expect(TiltPosition(elevationDegrees: 19.9) == .vertical)
        #expect(TiltPosition(elevationDegrees: -19.9) == .vertical)
        #expect(TiltPosition(elevationDegrees: 20) == .tiltedUp)
        #expect(TiltPosition(elevationDegrees: -45) == .tiltedDown)
        #expect(TiltPosition(elevationDegrees: 70) == .tiltedUp)
        #expect(TiltPosition(elevationDegrees: 70.1) == .faceUp)
        #expect(TiltPosition(elevationDegrees: -89) == .faceDown)
        #expect(TiltPosition.allCases.map(\.rawValue) == ["vertical", "tilted-up", "tilted-down", "face-up", "face-down"])
    }

    @Test func tiltPositionFromRollAndPitch() {
        #expect(TiltPosition(roll: 0, pitch: 0) == .faceUp)  // flat, screen to the sky
        #expect(TiltPosition(roll: 0, pitch: .pi / 2) == .vertical)  // upright
        #expect(TiltPosition(roll: .pi, pitch: 0) == .faceDown)  // flat, screen to the table
        #expect(TiltPosition(roll: 0, pitch: .pi / 4) == .tiltedUp)
        #expect(TiltPosition(roll: .pi * 0.75, pitch: 0) == .tiltedDown)
        #expect(TiltPosition(roll: 2 * .pi, pitch: 0) == .faceUp)  // continuous angles past a turn
    }

    @Test func valuesBeforeTheFirstState() {
        let properties = TiltProperties(hasAccelerometer: true, device: "iio:device0 (accel_3d)")
        #expect(properties.value(of: "Orientation") == .string("undefined"))
        #expect(properties.value(of: "Tilt") == .string("vertical"))
        #expect(properties.value(of: "Timestamp") == .uint64(0))
        #expect(properties.value(of: "Shine") == .pairs([.init(0, 1), .init(0, 1)]))
        #expect(properties.value(of: "HasAccelerometer") == .bool(true))
        #expect(properties.value(of: "Device") == .string("iio:device0 (accel_3d)"))
        #expect(properties.value(of: "Nope") == nil)
    }

    @Test func theDeviceMotionProperties() {
        let none = TiltProperties(hasAccelerometer: true)
        for name in ["Attitude", "Gravity", "UserAcceleration", "RotationRate", "GyroBias"] {
            #expect(none.value(of: name) == .doubles([]), "\(name) without a gyro")
        }
        #expect(none.value(of: "Rest") == .bool(false))
        let motion = DeviceMotion(attitude: SIMD4(0.1, 0.2, 0.3, 0.9), gravity: SIMD3(0, 0, -1),
                                  userAcceleration: SIMD3(0.5, 0, 0), rotationRate: SIMD3(0, 1, 0),
                                  isResting: true, gyroBias: SIMD3(0.001, 0, -0.002))
        let tilt = TiltState(timestampNanoseconds: 5, roll: 0, pitch: 0, orientation: .normal, motion: motion)
        let fused = TiltProperties(hasAccelerometer: true, hasGyroscope: true, state: KnobState(tilt: tilt))
        // DeviceMotion keeps single precision: compare with what it holds.
        let q = motion.attitude, bias = motion.gyroBias
        #expect(fused.value(of: "Attitude") == .doubles([q.w, q.x, q.y, q.z]))
        #expect(abs(q.w - 0.9) < 1e-7)
        #expect(fused.value(of: "Gravity") == .doubles([0, 0, -1]))
        #expect(fused.value(of: "UserAcceleration") == .doubles([0.5, 0, 0]))
        #expect(fused.value(of: "RotationRate") == .doubles([0, 1, 0]))
        #expect(fused.value(of: "Rest") == .bool(true))
        #expect(fused.value(of: "GyroBias") == .doubles([bias.x, bias.y, bias.z]))
        #expect(TiltProperties.names.suffix(6) == ["Attitude", "Gravity", "UserAcceleration", "RotationRate", "Rest", "GyroBias"])
        // The monitor rebuilds the same motion from the values.
        var values: [String: BusValue] = [:]
        for name in TiltProperties.names { values[name] = fused.value(of: name) }
        #expect(TiltMonitorFormat.motion(values) == motion)
        #expect(fused.value(of: "Attitude")?.signature == "ad")
    }

    @Test func changesListOnlyWhatDiffers() {
        let state = KnobState(tilt: TiltState(timestampNanoseconds: 1_500_000_000, roll: 0.25, pitch: 1.5,
                                              orientation: .normal))
        let before = TiltProperties(hasAccelerometer: true, device: "d", state: state)
        var after = before
        after.state?.tilt.timestampNanoseconds = 1_510_000_000
        after.state?.tilt.roll = 0.3
        after.state = after.state.map { KnobState(tilt: $0.tilt) }
        let names = after.changes(since: before).map(\.0)
        #expect(names == ["Roll", "Shine", "Timestamp"])
        #expect(after.changes(since: after).isEmpty)
        let shine = after.value(of: "Shine")
        let expected = ShinePair(roll: 0.3, pitch: 1.5)
        #expect(shine == .pairs([.init(expected.first.rotation, expected.first.opacity),
                                 .init(expected.second.rotation, expected.second.opacity)]))
    }

    @Test func claimsAreOnePerClientAndBounded() {
        var claims = ClaimSet(maximumCount: 2, maximumPerUser: 2)
        #expect(claims.claim(":1.1", user: 1000) == .added)
        #expect(claims.claim(":1.1", user: 1000) == .alreadyHeld)
        #expect(claims.claim(":1.2", user: 1001) == .added)
        #expect(claims.claim(":1.3", user: 1002) == .full)
        let released = claims.release(":1.1")
        let releasedTwice = claims.release(":1.1")
        #expect(released && !releasedTwice)
        #expect(claims.claim(":1.3", user: 1002) == .added)
        #expect(claims.count == 2)
    }

    @Test func oneUserHoldsAtMostItsShareOfClaims() {
        var claims = ClaimSet(maximumCount: 64, maximumPerUser: 2)
        #expect(claims.claim(":1.1", user: 1000) == .added)
        #expect(claims.claim(":1.2", user: 1000) == .added)
        #expect(claims.claim(":1.3", user: 1000) == .userFull)
        #expect(claims.claim(":1.4", user: 1001) == .added, "other users still get claims")
        #expect(claims.claim(":1.5", user: nil) == .added)
        #expect(claims.claim(":1.6", user: nil) == .added)
        #expect(claims.claim(":1.7", user: nil) == .userFull, "callers the bus would not name share one allowance")
        claims.release(":1.1")
        #expect(claims.claim(":1.3", user: 1000) == .added)
    }

    @Test func monitorJSONLineMatchesTheRunFormatPlusTilt() {
        let state = KnobState(tilt: TiltState(timestampNanoseconds: 12_345_678_000, roll: 0.1234, pitch: 0.4567,
                                              orientation: .leftUp))
        let properties = TiltProperties(state: state)
        var values: [String: BusValue] = [:]
        for name in TiltProperties.names { values[name] = properties.value(of: name) }
        let line = TiltMonitorFormat.json.state(values)
        #expect(line == String(state.jsonLine.dropLast(2)) + #","tilt":"tilted-up"}"#)
        #expect(TiltMonitorFormat.text.state(values)
                    == "t 12.345678  roll 0.1234  pitch 0.4567  orientation left-up  tilt tilted-up")
        #expect("a\"b\\c\n".jsonEscaped == #"a\"b\\c\u000a"#)
        let appeared = TiltMonitorFormat.json.appeared(owner: ":1.7", bus: "the session bus",
                                                       ["Device": .string("iio:device0 (\"x\")"),
                                                        "HasAccelerometer": .bool(true)])
        #expect(appeared == #"{"event":"appeared","owner":":1.7","device":"iio:device0 (\"x\")","#
                    + #""accelerometer":true,"gyroscope":false}"#)
    }
}
