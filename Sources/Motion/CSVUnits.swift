/// The unit of the acceleration columns of a plain CSV recording.
public enum CSVUnits: String, Sendable, CaseIterable {
    /// m/s² (the default).
    case metresPerSecondSquared = "ms2"
    /// Standard gravities; multiplied by 9.80665 m/s² on load.
    case g

    /// The factor to m/s².
    public var metresPerSecondSquared: Double {
        switch self {
        case .metresPerSecondSquared: return 1
        case .g: return 9.80665
        }
    }
}
