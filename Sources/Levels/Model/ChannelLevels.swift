/// The two channel levels at one moment, each 0…1 (0 = −60 dBFS or quieter,
/// 1 = full scale), as the EQ slider's two rows of lights show them.
public struct ChannelLevels: Sendable, Equatable {
    /// Seconds: since the meter started for live levels, since the file's
    /// start for files.
    public var seconds: Double
    /// The left channel's level, 0…1 (the upper row of lights).
    public var left: Double
    /// The right channel's level, 0…1 (the lower row of lights).
    public var right: Double

    /// - Parameters:
    ///   - seconds: the moment the levels belong to.
    ///   - left: the left level, clamped to 0…1.
    ///   - right: the right level, clamped to 0…1.
    public init(seconds: Double, left: Double, right: Double) {
        self.seconds = seconds
        self.left = ChannelLevels.clamp(left)
        self.right = ChannelLevels.clamp(right)
    }

    /// Clamps to 0…1; NaN becomes 0 so a broken input never lights a row.
    static func clamp(_ level: Double) -> Double {
        guard level > 0 else { return 0 }
        return min(level, 1)
    }
}
