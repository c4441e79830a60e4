import Testing
import Foundation
import Motion
@testable import Knob

@Suite struct KnobStateJSONTests {
    @Test func lineMatchesTheDocumentedSchema() {
        let tilt = TiltState(timestampNanoseconds: 12_345_678_000, roll: 0.1234,
                             pitch: 0.4567, orientation: .normal)
        let line = KnobState(tilt: tilt).jsonLine
        #expect(line == #"{"t":12.345678,"roll":0.1234,"pitch":0.4567,"orientation":"normal","shine":[{"rotation":0.3333,"opacity":1},{"rotation":-0.5801,"opacity":0.8766}]}"# + "\n")
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
