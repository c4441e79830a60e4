/// The recent scans of a gyroscope captured through its own buffer, and the
/// rate at an accelerometer sample's device timestamp (docs/devices.md,
/// "Two buffers merged by timestamp").
///
/// The rate at time t is interpolated linearly between the two scans either
/// side of t when both have arrived, else held from the scan nearest t (the
/// newest one before t, or the oldest after it). Holding is only allowed
/// while the timeline `covers` t: the newest scan is at most 1.5 gyro
/// periods before t, so what holding costs is at most about one period of
/// change in the rate. A gyro that lags further (its buffer delivered late)
/// does not cover t, and its last rate must not be fused there: held over
/// a stall it would turn the estimate by rate × stall.
///
/// A fixed ring of `capacity` scans: appending never allocates after `init`.
struct GyroTimeline {
    /// One gyro scan: its device timestamp (ns) and raw counts.
    struct Scan: Equatable {
        var timeNanoseconds: Int64
        var raw: SIMD3<Double>
    }

    /// How the rate at a time was found.
    enum Merge: Equatable {
        case interpolated
        case held
    }

    private var ring: [Scan]
    private var start = 0
    private(set) var count = 0
    /// The device time of the newest scan appended, nil before the first.
    private(set) var newestNanoseconds: Int64?
    /// The device time between the two newest scans, nil before the second
    /// (and after a backwards timestamp until the next).
    private(set) var newestIntervalNanoseconds: Int64?

    init(capacity: Int = 32) {
        precondition(capacity >= 2, "interpolating needs two scans")
        ring = Array(repeating: Scan(timeNanoseconds: 0, raw: .zero), count: capacity)
    }

    var capacity: Int { ring.count }

    /// Appends a scan; a timestamp going backwards (a device reset) drops
    /// the older scans. When full, the oldest scan makes room.
    mutating func append(timeNanoseconds: Int64, raw: SIMD3<Double>) {
        if let newest = newestNanoseconds, timeNanoseconds < newest {
            count = 0
            newestIntervalNanoseconds = nil
        } else if let newest = newestNanoseconds, timeNanoseconds > newest, count > 0 {
            newestIntervalNanoseconds = timeNanoseconds - newest
        }
        if count == ring.count {
            start = (start + 1) % ring.count
            count -= 1
        }
        ring[(start + count) % ring.count] = Scan(timeNanoseconds: timeNanoseconds, raw: raw)
        count += 1
        newestNanoseconds = timeNanoseconds
    }

    /// True when the scans that have arrived can give the rate at `time`:
    /// one is at or after it, or the newest is at most 1.5 periods before it
    /// (the next one is not overdue yet). The period is the interval between
    /// the two newest scans, else `nominalPeriodNanoseconds` (the gyro's
    /// sampling_frequency; 0 when unknown: then only a scan at or after
    /// `time` covers it).
    func covers(_ time: Int64, nominalPeriodNanoseconds: Int64) -> Bool {
        guard count > 0, let newest = newestNanoseconds else { return false }
        let period = newestIntervalNanoseconds ?? nominalPeriodNanoseconds
        return newest >= time || time - newest <= period + period / 2
    }

    private func scan(_ index: Int) -> Scan { ring[(start + index) % ring.count] }

    /// The raw rate at `time` and how it was found; nil when no scan has
    /// arrived. Scans older than the one before `time` are dropped: later
    /// accelerometer samples will not need them.
    mutating func raw(at time: Int64) -> (raw: SIMD3<Double>, merge: Merge)? {
        guard count > 0 else { return nil }
        // The last scan at or before `time`.
        var before = -1
        for index in 0..<count where scan(index).timeNanoseconds <= time { before = index }
        if before > 0 {
            start = (start + before) % ring.count
            count -= before
            before = 0
        }
        guard before == 0 else { return (scan(0).raw, .held) }  // every scan is after `time`
        let earlier = scan(0)
        guard count > 1, earlier.timeNanoseconds < time else { return (earlier.raw, .held) }
        let later = scan(1)
        let fraction = Double(time - earlier.timeNanoseconds)
            / Double(later.timeNanoseconds - earlier.timeNanoseconds)
        return (earlier.raw + fraction * (later.raw - earlier.raw), .interpolated)
    }
}
