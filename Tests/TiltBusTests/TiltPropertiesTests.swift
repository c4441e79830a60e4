import Knob
import Motion
import Testing
@testable import TiltBus

/// The values behind net.tiltd.Tilt1's properties, without a bus.
@Suite struct TiltPropertiesTests {
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
        #expect(TiltMonitorFormat.quoted("a\"b\\c\n") == #"a\"b\\c\u000a"#)
        let appeared = TiltMonitorFormat.json.appeared(owner: ":1.7", bus: "the session bus",
                                                       ["Device": .string("iio:device0 (\"x\")"),
                                                        "HasAccelerometer": .bool(true)])
        #expect(appeared == #"{"event":"appeared","owner":":1.7","device":"iio:device0 (\"x\")","#
                    + #""accelerometer":true,"gyroscope":false}"#)
    }
}
