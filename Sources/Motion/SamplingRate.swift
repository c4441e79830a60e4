/// The sampling-rate fix-up iio-sensor-proxy applies before reading a device.
///
/// Sensors that default to 0 Hz deliver nothing and 1 Hz makes reads block,
/// so a rate below 10 Hz is raised to the nearest available rate at or above
/// 10 Hz (iio-sensor-proxy, SPEC §4). Rates of 10 Hz and more are kept.
public enum SamplingRate {
    /// The lowest rate tiltd accepts without raising it, in Hz.
    public static let minimumHertz: Double = 10

    /// The rate to write to `sampling_frequency`.
    ///
    /// - Parameters:
    ///   - requested: the device's current (or the user's) rate in Hz.
    ///   - available: what `sampling_frequency_available` offers, or nil if
    ///     the device has no such attribute.
    /// - Returns: `requested` if it is at least 10 Hz; otherwise the smallest
    ///   available rate ≥ 10 Hz; if none is that high, the highest available
    ///   rate; without a list, 10 Hz.
    ///   Example: "3 6 12 25 50 100 200 400 800 1600" with 5.2 → 12.
    public static func choose(requested: Double, available: SamplingFrequencies?) -> Double {
        if requested >= minimumHertz { return requested }
        guard let available else { return minimumHertz }
        return available.smallest(atLeast: minimumHertz) ?? available.highest
    }
}
