/// When a device run stops on its own: after a number of samples or of
/// seconds (`run`, `record`).
public enum DeviceRunLimits {
    /// A limit that is not above 0.
    public enum Invalid: Error, Sendable, Equatable {
        case count(Int)
        case duration(Double)
    }

    /// - Throws: `Invalid` for the limit that is not above 0.
    public static func check(count: Int?, duration: Double?) throws(Invalid) {
        if let count, count <= 0 { throw .count(count) }
        if let duration, !(duration.isFinite && duration > 0) { throw .duration(duration) }
    }
}
