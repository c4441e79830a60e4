import Foundation
@testable import Knob
import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct KnobStateJSONTests {
    @Test func lineMatchesTheDocumentedSchema() {
        let tilt = TiltState(timestampNanoseconds: 12_345_678_000, roll: 0.1234,
                             pitch: 0.4567, orientation: .normal)
        let line = KnobState(tilt: tilt).jsonLine
        #expect(line == #"{"t":12.345678,"roll":0.1234,"pitch":0.4567,"orientation":"normal","shine":[{"rotation":0.3333,"opacity":1},{"rotation":-0.5801,"opacity":0.8766}]}"# + "\n")
    }

    @Test func theDeviceMotionFollowsTheShine() throws {
        let motion = DeviceMotion(attitude: SIMD4(0.1, -0.2, 0.000004, 0.97468), gravity: SIMD3(-0.1, 0.25, -0.96),
                                  userAcceleration: SIMD3(0.01234, 0, -0.5), rotationRate: SIMD3(1.5, -0.25, 0.00006),
                                  isResting: false, gyroBias: SIMD3(0.0012346, -0.0000004, 0.02))
        let tilt = TiltState(timestampNanoseconds: 12_345_678_000, roll: 0.1234, pitch: 0.4567, orientation: .normal,
                             motion: motion)
        let line = KnobState(tilt: tilt).jsonLine
        #expect(line == #"{"t":12.345678,"roll":0.1234,"pitch":0.4567,"orientation":"normal","shine":[{"rotation":0.3333,"opacity":1},{"rotation":-0.5801,"opacity":0.8766}],"attitude":[0.97468,0.1,-0.2,0],"gravity":[-0.1,0.25,-0.96],"userAcceleration":[0.0123,0,-0.5],"rotationRate":[1.5,-0.25,0.0001],"rest":false,"gyroBias":[0.001235,0,0.02]}"# + "\n")
        var resting = tilt
        resting.motion?.isResting = true
        let object = try JSONSerialization.jsonObject(with: Data(KnobState(tilt: resting).jsonLine.utf8)) as? [String: Any]
        #expect(object?["rest"] as? Bool == true)
        #expect((object?["attitude"] as? [Double])?.count == 4)
        #expect(object?["gyroBias"] as? [Double] == [0.001235, 0, 0.02])
        // The widest line the fields can make still fits the line buffer.
        let extreme = DeviceMotion(attitude: SIMD4(repeating: -8e9), gravity: SIMD3(repeating: -8e9),
                                   userAcceleration: SIMD3(repeating: -8e9), rotationRate: SIMD3(repeating: -8e9),
                                   isResting: false, gyroBias: SIMD3(repeating: -8.999_999_999e9))
        let wide = TiltState(timestampNanoseconds: .min, roll: -8e9, pitch: -8e9, orientation: .bottomUp, motion: extreme)
        #expect(try JSONSerialization.jsonObject(with: Data(KnobState(tilt: wide).jsonLine.utf8)) is [String: Any])
    }

    @Test func lineIsValidJSONWithUndefinedOrientation() throws {
        let tilt = TiltState(timestampNanoseconds: -1_500, roll: -2.5, pitch: 7,
                             orientation: nil)
        let line = KnobState(tilt: tilt).jsonLine
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["orientation"] as? String == "undefined")
        #expect(object?["t"] as? Double == -0.000002)
        #expect(object?["roll"] as? Double == -2.5)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (-0.00004, "0"), (0.00005, "0.0001"), (1.0, "1"),
        (-3.14159265, "-3.1416"), (0.1, "0.1"), (12345.5, "12345.5"), (Double.nan, "null"),
    ])
    func numbersAreFormattedWithoutLocale(value: Double, expected: String) {
        var bytes: [UInt8] = []
        JSONNumber.append(value, decimals: 4, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
