/// Something the pipeline noticed that the user should hear about.
public enum PipelineDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A timestamp earlier than the previous sample's: the filter restarted there.
    case backwardsTimestamp(previousNanoseconds: Int64, nanoseconds: Int64)
    /// A gap longer than the filter's reset gap: the filter restarted there.
    case filterReset(gapNanoseconds: Int64, atNanoseconds: Int64)
    /// A reading with a NaN or infinite component: skipped.
    case invalidReading(atNanoseconds: Int64)

    /// A short name for the kind, to report each kind once.
    public var kind: String {
        switch self {
        case .backwardsTimestamp: return "backwards-timestamp"
        case .filterReset: return "filter-reset"
        case .invalidReading: return "invalid-reading"
        }
    }

    public var description: String {
        switch self {
        case .backwardsTimestamp(let previous, let now):
            return "timestamp went backwards from \(Self.secondsText(previous)) s to \(Self.secondsText(now)) s: "
                + "the filter restarted there; check the source's clock (IIO: set current_timestamp_clock to monotonic)"
        case .filterReset(let gap, let at):
            return "gap of \(Self.secondsText(gap)) s before \(Self.secondsText(at)) s: the filter restarted there"
        case .invalidReading(let at):
            return "reading at \(Self.secondsText(at)) s is not finite (NaN or infinity): skipped"
        }
    }

    /// Nanoseconds as seconds with 6 decimals, e.g. "1.500000".
    public static func secondsText(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let micros = (magnitude + 500) / 1000
        let fraction = String(micros % 1_000_000)
        return sign + String(micros / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
