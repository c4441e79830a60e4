import Motion

/// Turns a motion sensor's event stream into one `MotionSample` per
/// SYN_REPORT, with the device's own timestamps.
///
/// Axis events update the latest raw values (evdev only sends axes that
/// changed, so the others keep their value). `MSC_TIMESTAMP` is the device's
/// µs counter: 32 bits that wrap (hid-playstation after ~71 min; the Steam
/// Deck's synthesised one too), so deltas are taken modulo 2³² and summed.
/// Its origin is arbitrary, so the first report anchors it to the arrival
/// time on CLOCK_MONOTONIC; later samples are anchor + device µs, keeping the
/// device's own spacing (not the jitter of Bluetooth or USB delivery). A
/// report without one takes its arrival time.
public struct PadReportAssembler: Sendable {
    public let info: MotionPadInfo
    private var rawAcceleration: SIMD3<Double>
    private var rawAngularVelocity = SIMD3<Double>(repeating: 0)
    private var pendingStamp: UInt32?
    private var lastStamp: UInt32?
    private var unwrappedMicroseconds: Int64 = 0
    /// Monotonic ns minus device ns, set by the first timestamped report.
    private var anchorNanoseconds: Int64?
    /// The smallest arrival minus device ns of the chain so far: a report
    /// cannot arrive before the device made it, so this is the tightest
    /// bound on the anchor. The first report may have waited in the queue
    /// (read late after opening, on a busy machine), which puts the anchor
    /// itself later than the device's clock by that wait.
    private var earliestOffsetNanoseconds: Int64?
    private var lastTimeNanoseconds: Int64?
    /// True from SYN_DROPPED to the next report with a timestamp.
    private var resynchronising = false
    /// How far a resumed counter may put a report ahead of its arrival
    /// (clock drift and jitter between the device and the host).
    static let aheadSlackNanoseconds: Int64 = 100_000_000

    /// - Parameter info: the pad (resolutions, matrix). The axes start at 0
    ///   until `set` gives the values read when the node was opened.
    public init(info: MotionPadInfo) {
        self.info = info
        rawAcceleration = SIMD3(repeating: 0)
    }

    /// Sets an axis's value without producing a sample (the values libevdev
    /// read when opening, or those of a resynchronisation).
    public mutating func set(code: UInt16, value: Int32) {
        let number = Double(value)
        switch code {
        case 0, 1, 2: rawAcceleration[Int(code)] = number
        case 3, 4, 5: rawAngularVelocity[Int(code) - 3] = number
        default: break
        }
    }

    /// Notes `MSC_TIMESTAMP` of the report in progress.
    public mutating func timestamp(_ value: Int32) {
        pendingStamp = UInt32(bitPattern: value)
    }

    /// Forgets a half-read report after SYN_DROPPED. The timestamp chain goes
    /// on when the next report's counter continues it (device time, so the
    /// gap's Δt does not depend on how late tiltd read); see `report`.
    public mutating func dropped() {
        pendingStamp = nil
        resynchronising = true
    }

    /// Ends a report (SYN_REPORT).
    ///
    /// - Parameter arrivalNanoseconds: when it arrived, on CLOCK_MONOTONIC.
    /// - Returns: the sample, in tiltd's frame and units.
    public mutating func report(arrivalNanoseconds: Int64) -> MotionSample {
        var time = arrivalNanoseconds
        if let stamp = pendingStamp {
            // After SYN_DROPPED the counter continues unless the device time
            // it gives lies past the arrival (a reset, or more than a wrap
            // lost): then the report re-anchors at its arrival. "Past" is
            // judged from the earliest arrival of the chain, not the
            // anchor, so a first report that was read late does not make
            // a continuing counter look like a reset.
            if let lastStamp, let earliest = earliestOffsetNanoseconds, resynchronising,
               earliest + (unwrappedMicroseconds + Int64(stamp &- lastStamp)) * 1000 > arrivalNanoseconds + Self.aheadSlackNanoseconds {
                self.lastStamp = nil
            }
            resynchronising = false
            if let lastStamp = self.lastStamp {
                unwrappedMicroseconds += Int64(stamp &- lastStamp)
            } else {
                unwrappedMicroseconds = 0
                anchorNanoseconds = nil
                earliestOffsetNanoseconds = nil
            }
            lastStamp = stamp
            let deviceNanoseconds = unwrappedMicroseconds * 1000
            earliestOffsetNanoseconds = min(earliestOffsetNanoseconds ?? .max, arrivalNanoseconds - deviceNanoseconds)
            let anchor = anchorNanoseconds ?? (arrivalNanoseconds - deviceNanoseconds)
            anchorNanoseconds = anchor
            time = anchor + deviceNanoseconds
        }
        // Never let time run backwards (a re-anchor after SYN_DROPPED, or a
        // report without a timestamp after ones with): the filters need Δt > 0.
        if let last = lastTimeNanoseconds, time <= last { time = last + 1 }
        lastTimeNanoseconds = time
        pendingStamp = nil
        let gyro = info.gyroscopeAxes.count == 3 ? info.angularVelocity(raw: rawAngularVelocity) : nil
        return MotionSample(reading: Reading(timestampNanoseconds: time,
                                             acceleration: info.acceleration(raw: rawAcceleration)),
                            angularVelocityRadiansPerSecond: gyro, rawAcceleration: rawAcceleration,
                            rawAngularVelocity: rawAngularVelocity)
    }
}
