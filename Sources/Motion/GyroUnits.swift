/// The unit of the gyro columns of a plain CSV recording.
public enum GyroUnits: String, Sendable, CaseIterable {
    /// rad/s (the default, as traces).
    case radiansPerSecond = "rad"
    /// Degrees per second; multiplied by π/180 on load.
    case degreesPerSecond = "deg"

    /// The factor to rad/s.
    public var radiansPerSecond: Double {
        switch self {
        case .radiansPerSecond: return 1
        case .degreesPerSecond: return .pi / 180
        }
    }
}
