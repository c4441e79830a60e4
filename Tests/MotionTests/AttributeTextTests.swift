@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct AttributeTextTests {
    @Test func parsesScaleWithTrailingNewline() throws {
        #expect(try AttributeText.double("0.009806\n", attribute: "in_accel_scale") == 0.009806)
        #expect(try AttributeText.double("-12\n", attribute: "in_accel_x_offset") == -12)
        #expect(try AttributeText.integer("-523\n", attribute: "in_accel_x_raw") == -523)
        #expect(try AttributeText.double(" 0.5\r\n", attribute: "in_accel_scale") == 0.5)
        #expect(try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1\r\n").rows.0 == SIMD3(0, -1, 0))
    }

    @Test func errorNamesTheAttribute() {
        let error = #expect(throws: AttributeTextError.self) {
            try AttributeText.double("0,009806\n", attribute: "in_accel_scale")
        }
        #expect(error?.description.contains("in_accel_scale") == true)
        #expect(error?.description.contains("0,009806") == true)
        #expect(throws: AttributeTextError.self) { try AttributeText.double("\n", attribute: "scale") }
        #expect(throws: AttributeTextError.self) { try AttributeText.integer("1.5", attribute: "raw") }
    }

    @Test func parsesAvailableList() throws {
        let list = try AttributeText.samplingFrequencies("3 6 12 25 50 100 200 400 800 1600\n",
                                                         attribute: "sampling_frequency_available")
        #expect(list == .list([3, 6, 12, 25, 50, 100, 200, 400, 800, 1600]))
        let range = try AttributeText.samplingFrequencies("[1 4 200]\n", attribute: "sampling_frequency_available")
        #expect(range == .range(minimum: 1, step: 4, maximum: 200))
        #expect(throws: AttributeTextError.self) {
            try AttributeText.samplingFrequencies("[1 2]", attribute: "sampling_frequency_available")
        }
        #expect(throws: AttributeTextError.self) {
            try AttributeText.samplingFrequencies("12 fast", attribute: "sampling_frequency_available")
        }
        #expect(throws: AttributeTextError.self) {
            try AttributeText.samplingFrequencies("", attribute: "sampling_frequency_available")
        }
    }

    @Test func raisesSlowRatesLikeIioSensorProxy() throws {
        let available = try AttributeText.samplingFrequencies("3 6 12 25 50 100 200 400 800 1600",
                                                              attribute: "sampling_frequency_available")
        #expect(SamplingRate.choose(requested: 5.2, available: available) == 12)
        #expect(SamplingRate.choose(requested: 0, available: available) == 12)
        #expect(SamplingRate.choose(requested: 50, available: available) == 50)
        #expect(SamplingRate.choose(requested: 1, available: .list([1, 2, 5])) == 5)
        #expect(SamplingRate.choose(requested: 1, available: nil) == 10)
        #expect(SamplingRate.choose(requested: 1, available: .range(minimum: 1, step: 4, maximum: 200)) == 13)
        #expect(SamplingRate.choose(requested: 1, available: .range(minimum: 0, step: 2.5, maximum: 100)) == 10)
    }
}
