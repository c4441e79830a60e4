/// Locale-free number text for traces.
enum TraceNumberText {
    /// The shortest text that reads back as exactly `value` (Swift's
    /// `description`, which ignores the locale), integers without ".0".
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }
}
