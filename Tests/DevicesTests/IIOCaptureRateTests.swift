@testable import Devices
import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct IIOCaptureRateTests {
    static func device(rate: Double?, available: SamplingFrequencies?) -> AccelerometerInfo {
        var info = IIOSelectionTests.device("iio:device0")
        info.samplingFrequencyHertz = rate
        info.availableFrequencies = available
        return info
    }

    static let onda = SamplingFrequencies.list([3, 6, 12, 25, 50, 100, 200, 400, 800, 1600])

    @Test func raisesASlowDeviceToTheNearestAvailableRateOfAtLeast10Hz() {
        #expect(CaptureRate.choose(requested: nil, info: Self.device(rate: 5.2, available: Self.onda)) == 12)
        #expect(CaptureRate.choose(requested: nil, info: Self.device(rate: 0, available: Self.onda)) == 12)
        #expect(CaptureRate.choose(requested: nil, info: Self.device(rate: 100, available: Self.onda)) == 100)
    }

    @Test func pollsAt50HzWithoutSamplingFrequency() {
        #expect(CaptureRate.choose(requested: nil, info: Self.device(rate: nil, available: nil)) == 50)
        #expect(CaptureRate.choose(requested: 30, info: Self.device(rate: nil, available: nil)) == 30)
    }

    @Test func clampsTheRequestedRateToWhatTheDeviceOffers() {
        let info = Self.device(rate: 50, available: Self.onda)
        #expect(CaptureRate.choose(requested: 60, info: info) == 50)
        #expect(CaptureRate.choose(requested: 5000, info: info) == 1600)
        #expect(CaptureRate.choose(requested: 1, info: info) == 3)
        #expect(CaptureRate.clamp(9, to: .list([6, 12])) == 12)  // a tie goes to the faster rate
        let range = SamplingFrequencies.range(minimum: 10, step: 5, maximum: 100)
        #expect(CaptureRate.clamp(42, to: range) == 40)
        #expect(CaptureRate.clamp(1000, to: range) == 100)
        #expect(CaptureRate.clamp(1, to: range) == 10)
    }

    @Test func writesRatesWithoutLocaleOrTrailingZeros() {
        #expect(CaptureRate.attributeText(12) == "12")
        #expect(CaptureRate.attributeText(12.5) == "12.5")
    }
}

/// Regression: `run --rate 100000` on a device without sampling_frequency
/// polled "at 100000 Hz".
@Suite(.timeLimit(.minutes(2))) struct IIOPollingRateLimitTests {
    @Test func pollingWithoutSamplingFrequencyIsClampedToTheDocumentedMaximum() {
        let bare = IIOCaptureRateTests.device(rate: nil, available: nil)
        #expect(CaptureRate.maximumPollingHertz == 1000)
        #expect(CaptureRate.choose(requested: 100_000, info: bare) == 1000)
        #expect(CaptureRate.choose(requested: 1000, info: bare) == 1000)
        #expect(CaptureRate.choose(requested: 30, info: bare) == 30)
        #expect(CaptureRate.choose(requested: nil, info: bare) == 50)
        // A device with its own rates is clamped to those instead.
        let onda = IIOCaptureRateTests.device(rate: 100, available: IIOCaptureRateTests.onda)
        #expect(CaptureRate.choose(requested: 100_000, info: onda) == 1600)
    }
}
