/// The rates a device offers in `sampling_frequency_available`, in Hz.
public enum SamplingFrequencies: Sendable, Equatable {
    /// Discrete rates, as listed ("3 6 12 25").
    case list([Double])
    /// Every `minimum + k·step` up to `maximum` ("[min step max]").
    case range(minimum: Double, step: Double, maximum: Double)

    /// The smallest offered rate at or above `floor` Hz, if any.
    public func smallest(atLeast floor: Double) -> Double? {
        switch self {
        case .list(let values):
            return values.filter { $0 >= floor }.min()
        case .range(let minimum, let step, let maximum):
            if minimum >= floor { return minimum }
            // A small tolerance so that 9.999999 steps to 10 rather than 10 + step.
            let steps = ((floor - minimum) / step - 1e-9).rounded(.up)
            let candidate = minimum + steps * step
            return candidate <= maximum + 1e-9 ? min(candidate, maximum) : nil
        }
    }

    /// The highest offered rate.
    public var highest: Double {
        switch self {
        case .list(let values): return values.max() ?? 0
        case .range(_, _, let maximum): return maximum
        }
    }
}
