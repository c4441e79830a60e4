import Knob
import Motion
@testable import Sensors

/// Distinct, predictable knob states for the streaming tests.
public enum TestStates {
    /// State number `index`: t = index × 5 ms, roll growing by 1 mrad a state,
    /// so every state has a distinct JSON line.
    public static func state(_ index: Int) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: Int64(index) * 5_000_000,
                                  roll: Double(index) * 0.001, pitch: -0.25,
                                  orientation: .normal))
    }

    /// The JSON line of `state(index)`, without its newline.
    public static func line(_ index: Int) -> String {
        String(state(index).jsonLine.dropLast())
    }

    /// A buffered 200 Hz bmi160 as `iio:device0`, opened.
    public static let captureStatus: CaptureStatus = {
        let info = AccelerometerInfo(
            id: "iio:device0", name: "bmi160", label: nil, udevLocation: nil, uri: "local:",
            scale: SIMD3(repeating: 1), offset: .zero, scaleSource: "", offsetSource: "", mountMatrix: .identity,
            mountMatrixSource: .identity, samplingFrequencyHertz: 200, availableFrequencies: nil,
            availableFrequenciesText: nil, bufferCapable: true, hasTimestamp: true, currentTrigger: nil,
            triggerCandidate: nil, timestampClock: nil)
        return CaptureStatus(info: info, mode: .buffer, rateHertz: 200, clock: "monotonic")
    }()
}
