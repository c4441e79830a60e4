import Motion
/// What tiltd knows about one accelerometer before capturing from it.
///
/// Raw readings become m/s² in the device frame by
/// `mountMatrix · ((raw + offset) × scale)` (IIO ABI, SPEC §4).
public struct AccelerometerInfo: Sendable, Equatable {
    /// libiio's id, e.g. "iio:device0".
    public var id: String
    /// The driver's `name`, e.g. "accel_3d".
    public var name: String?
    /// sysfs `label`, e.g. "accel-display".
    public var label: String?
    /// The udev property `ACCEL_LOCATION` ("display", "base"), local contexts only.
    public var udevLocation: String?
    /// The context URI the device was found on.
    public var uri: String
    /// Scale per axis in m/s² per raw unit.
    public var scale: SIMD3<Double>
    /// Offset per axis in raw units.
    public var offset: SIMD3<Double>
    /// The files scale came from: per axis, shared, bare `scale`, or "default 1".
    public var scaleSource: String
    /// The files offset came from, or "default 0".
    public var offsetSource: String
    /// The matrix applied as M·v.
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: MountMatrixSource
    /// `sampling_frequency` in Hz, nil when the device has none.
    public var samplingFrequencyHertz: Double?
    /// `sampling_frequency_available`, parsed.
    public var availableFrequencies: SamplingFrequencies?
    /// `sampling_frequency_available` as the device wrote it.
    public var availableFrequenciesText: String?
    /// True when x, y and z are scan elements, so buffered capture is possible.
    public var bufferCapable: Bool
    /// True when the buffer can carry a `timestamp` element.
    public var hasTimestamp: Bool
    /// The trigger set now (`trigger/current_trigger`), if any.
    public var currentTrigger: String?
    /// The trigger tiltd would set: HID sensor hubs name theirs
    /// `<name>-dev<N>`, others `<name>-trigger`; nil when neither exists
    /// (a device with a hardware FIFO needs none).
    public var triggerCandidate: String?
    /// `current_timestamp_clock`, if the device has it.
    public var timestampClock: String?
    /// The gyroscope paired with it (`GyroDiscovery`'s rule), if any.
    public var gyro: GyroInfo? = nil
    /// Why a paired gyroscope cannot be used (its attributes failed), if so.
    public var gyroProblem: String? = nil
    /// The HID hub's fused rotation beside it (`Setting.source` `rotation`), if any.
    public var rotation: RotationInfo? = nil

    /// Where the device sits: `ACCEL_LOCATION` overrides the label
    /// ("accel-display" → "display"), SPEC §4.
    public var location: String? {
        if let udevLocation, !udevLocation.isEmpty { return udevLocation }
        guard let label, label.hasPrefix("accel-") else { return nil }
        return String(label.dropFirst("accel-".count))
    }

    /// The rate a polled capture would use without `Setting.rate`: the device's
    /// own (raised below 10 Hz, SPEC §4) or 50 Hz when it has none.
    public var defaultPollingRateHertz: Double {
        guard let samplingFrequencyHertz else { return 50 }
        return SamplingRate.choose(requested: samplingFrequencyHertz, available: availableFrequencies)
    }

    /// Converts raw readings to m/s² in the device frame.
    @inline(__always)
    public func acceleration(raw: SIMD3<Double>) -> SIMD3<Double> {
        mountMatrix.apply((raw + offset) * scale)
    }

    /// "iio:device0 (accel_3d)": how messages name the device.
    public var displayName: String {
        if let name { return "\(id) (\(name))" }
        return id
    }
}

extension AccelerometerInfo {
    /// An accelerometer known only by its libiio id, driver name and
    /// context URI (unit scale, no offset, the identity mount matrix,
    /// buffered with timestamps at 200 Hz): for consumers that only name it.
    public static func named(id: String, name: String?, uri: String = "local:") -> AccelerometerInfo {
        AccelerometerInfo(
            id: id, name: name, label: nil, udevLocation: nil, uri: uri,
            scale: SIMD3(repeating: 1), offset: .zero, scaleSource: "", offsetSource: "", mountMatrix: .identity,
            mountMatrixSource: .identity, samplingFrequencyHertz: 200, availableFrequencies: nil,
            availableFrequenciesText: nil, bufferCapable: true, hasTimestamp: true, currentTrigger: nil,
            triggerCandidate: nil, timestampClock: nil)
    }
}
