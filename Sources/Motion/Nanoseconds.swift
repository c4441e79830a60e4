/// Differences of Int64 nanosecond timestamps that cannot wrap.
///
/// Timestamps come from files and devices and may sit anywhere in Int64:
/// `Int64.max − Int64.min` wraps to −1 with `&-` (a forward jump read as
/// going backwards) and traps with `-`. The difference here saturates at
/// the ends instead, so its sign is always right.
public enum Nanoseconds {
    /// `later − earlier`, clamped to `Int64.min…Int64.max`.
    @inlinable @inline(__always)
    public static func difference(_ later: Int64, _ earlier: Int64) -> Int64 {
        let (delta, overflow) = later.subtractingReportingOverflow(earlier)
        return overflow ? (later > earlier ? .max : .min) : delta
    }
}
