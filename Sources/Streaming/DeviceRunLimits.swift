import Motion

/// When a device run stops on its own: `Setting.count` samples or `Setting.duration`
/// seconds (`run`, `record`).
public enum DeviceRunLimits {
    /// - Throws: `SettingError` naming the option that is not above 0.
    public static func check(count: Int?, duration: Double?) throws(SettingError) {
        if let count, count <= 0 {
            throw SettingError("\(.count) \(count): give a number of samples above 0")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw SettingError("\(.duration) \(duration): give a number of seconds above 0")
        }
    }
}
