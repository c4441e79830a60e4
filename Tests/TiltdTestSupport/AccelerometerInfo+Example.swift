@testable import Devices

extension AccelerometerInfo {
    /// A buffered 200 Hz accelerometer at `local:` as libiio would describe
    /// it, with nothing read from sysfs (for consumers that only name it).
    public static func example(id: String = "iio:device0", name: String = "bmi160") -> AccelerometerInfo {
        AccelerometerInfo(
            id: id, name: name, label: nil, udevLocation: nil, uri: "local:",
            scale: SIMD3(repeating: 1), offset: .zero, scaleSource: "", offsetSource: "", mountMatrix: .identity,
            mountMatrixSource: .identity, samplingFrequencyHertz: 200, availableFrequencies: nil,
            availableFrequenciesText: nil, bufferCapable: true, hasTimestamp: true, currentTrigger: nil,
            triggerCandidate: nil, timestampClock: nil)
    }
}
