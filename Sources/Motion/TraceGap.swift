/// A stretch of time a trace has no samples for (a device vanished, a
/// capture paused).
public struct TraceGap: Sendable, Equatable {
    /// When the gap was noticed (ns, same clock as the samples).
    public var timestampNanoseconds: Int64
    /// Why, in words ("device vanished"); may be empty.
    public var reason: String
    /// How many readings of the recording come before the gap.
    public var readingIndex: Int

    public init(timestampNanoseconds: Int64, reason: String, readingIndex: Int) {
        self.timestampNanoseconds = timestampNanoseconds
        self.reason = reason
        self.readingIndex = readingIndex
    }
}
