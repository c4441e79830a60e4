import Motion
/// The sampling rate a capture uses (SPEC §4).
public enum CaptureRate {
    /// The rate to use, in Hz.
    ///
    /// - `requested` (from `Setting.rate`) is clamped to what the device offers: the
    ///   nearest listed rate, or the `[min step max]` range snapped to its step.
    /// - Without it, the device's own rate, raised to the nearest available
    ///   rate ≥ 10 Hz when below 10 Hz (iio-sensor-proxy's fix-up).
    /// - A device without `sampling_frequency` is polled at `requested`, at
    ///   most `maximumPollingHertz`, or 50 Hz.
    public static func choose(requested: Double?, info: AccelerometerInfo) -> Double {
        if let requested {
            if info.samplingFrequencyHertz == nil { return min(requested, maximumPollingHertz) }
            guard let available = info.availableFrequencies else { return requested }
            return clamp(requested, to: available)
        }
        return info.defaultPollingRateHertz
    }

    /// The rate for fusing a gyroscope: as `choose`, but without `Setting.rate`
    /// at least `fusionMinimumHertz` where the device offers it (the
    /// smallest offered rate at or above it), and that rate when polling a
    /// device without `sampling_frequency`.
    public static func chooseForFusion(requested: Double?, info: AccelerometerInfo) -> Double {
        let usual = choose(requested: requested, info: info)
        guard requested == nil, usual < fusionMinimumHertz else { return usual }
        guard info.samplingFrequencyHertz != nil else { return fusionMinimumHertz }
        switch info.availableFrequencies {
        case .list(let values):
            return values.filter { $0 >= fusionMinimumHertz }.min() ?? values.max().map { max($0, usual) } ?? usual
        case .range(_, _, let maximum):
            return maximum >= fusionMinimumHertz ? clamp(fusionMinimumHertz, to: info.availableFrequencies!) : usual
        case nil:
            // No list: ask for the fusion rate (HID hubs accept any value;
            // a refusal is reported and the device polled at it anyway).
            return fusionMinimumHertz
        }
    }

    /// The least rate worth fusing at, Hz.
    public static let fusionMinimumHertz = 100.0

    /// The fastest tiltd polls a device that has no `sampling_frequency`
    /// (nothing then says how fast it can be read): 1000 Hz, one sample a
    /// millisecond, three sysfs reads each. Faster `Setting.rate`s are clamped.
    public static let maximumPollingHertz: Double = 1000

    /// The offered rate nearest to `hertz` (the higher one on a tie).
    public static func clamp(_ hertz: Double, to available: SamplingFrequencies) -> Double {
        switch available {
        case .list(let values):
            let positive = values.filter { $0 > 0 }
            return positive.min { a, b in
                let (da, db) = (abs(a - hertz), abs(b - hertz))
                return da < db || (da == db && a > b)
            } ?? hertz
        case .range(let minimum, let step, let maximum):
            let bounded = min(max(hertz, minimum), maximum)
            guard step > 0 else { return bounded }
            return min(minimum + ((bounded - minimum) / step).rounded() * step, maximum)
        }
    }

    /// The text written to `sampling_frequency`: "12", "12.5" (never locale-dependent).
    public static func attributeText(_ hertz: Double) -> String {
        if hertz == hertz.rounded(), abs(hertz) < 1e15 { return String(Int64(hertz)) }
        return String(hertz)
    }
}
