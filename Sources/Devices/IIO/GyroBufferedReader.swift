import Motion
import Wording
#if canImport(Glibc)
import Glibc
#endif

/// A gyroscope on its own IIO device (st_lsm6dsx `<chip>_gyro`, HID
/// `gyro_3d`) captured through its own buffer, read without blocking after
/// each accelerometer sample so the two streams can be merged by device
/// timestamp (`GyroTimeline`). The buffer holds as many scans per read as
/// the accelerometer's (libiio gives the kernel four times that), so a
/// paced accelerometer that wakes once per batch finds every gyro scan of
/// the batch still there.
///
/// Lives on the capture thread only; the accelerometer's buffer is the one
/// that blocks (and that `cancel()` wakes).
final class GyroBufferedReader {
    private let iio: any IIOBackend
    private var buffer: IIOBufferHandle?
    private let layout: ScanLayout
    private var timeline: GyroTimeline
    /// How long (device time) the gyro may deliver nothing before it counts
    /// as lost: the accelerometer's running-buffer timeout, max(1 s, 4 periods).
    private let silenceNanoseconds: Int64
    /// The first accelerometer time asked about, standing in for the newest
    /// scan until one arrives.
    private var firstAskedNanoseconds: Int64?
    /// The gyro's nominal period (from sampling_frequency; 0 when unknown).
    private let periodNanoseconds: Int64
    /// The longest a sample waits for the gyro: 3 ms, or half the gyro's period
    /// when that is shorter, so the accelerometer's path keeps its pace.
    let waitNanoseconds: Int64
    /// False after a wait that brought nothing, until the gyro delivers again.
    private var mayWait = true
    /// The accelerometer time of the first sample of the current run of
    /// samples the gyro did not cover.
    private var uncoveredSinceNanoseconds: Int64?
    private var lagReported = false
    /// How long (accelerometer time) samples may go uncovered before it is said.
    static let lagNoticeNanoseconds: Int64 = 200_000_000
    let shownName: String
    /// The clock of the gyro's timestamps after asking for monotonic.
    let clock: String

    /// Enables the gyro's x, y, z and timestamp, sets its trigger (HID hubs
    /// need one) and clock, and creates a non-blocking buffer.
    ///
    /// - Throws: `IIOError`: ENOTSUP without a timestamp scan element (there
    ///   is nothing to merge by), EINVAL when the scan size disagrees or the
    ///   clock cannot match `clock`, else what enabling the buffer raised.
    /// - Parameter scansPerRead: the most scans one non-blocking read takes
    ///   (the accelerometer's paced buffer's capacity; 1 for one scan a wake).
    init(found: GyroDiscovery.Found, context: IIOContext, clock wanted: String, scansPerRead: Int = 1) throws {
        // Room for the scans read ahead of the sample asked about, beside those around it.
        timeline = GyroTimeline(capacity: 64 + 2 * scansPerRead)
        let device = found.device
        let iio = context.iio
        self.iio = iio
        shownName = found.info.displayName
        guard let timestamp = iio.inputChannel(device, id: "timestamp"), iio.isScanElement(timestamp) else {
            throw IIOError("buffered capture of the gyroscope", on: shownName, errno: Errno(ENOTSUP),
                           fix: "it has no in_timestamp scan element to merge by: it is polled instead")
        }
        for channel in iio.channels(device) where iio.isScanElement(channel) { iio.disable(channel) }
        for channel in found.axes + [timestamp] { iio.enable(channel) }
        func element(_ channel: IIOChannelHandle) -> ScanLayout.Element {
            .init(index: iio.scanIndex(channel), type: iio.dataFormat(channel))
        }
        layout = ScanLayout(axes: found.axes.map(element), timestamp: element(timestamp))
        guard iio.sampleSize(device) == layout.scanBytes else {
            throw IIOError("laying out the gyroscope's scans", on: shownName, errno: Errno(EINVAL),
                           fix: "libiio says \(iio.sampleSize(device)) bytes per scan, tiltd computed "
                               + "\(layout.scanBytes): report the device's scan_elements")
        }
        var current = "realtime"
        if case .success(let text) = iio.readDeviceAttribute(device, "current_timestamp_clock") {
            current = text.trimmingASCIIWhitespace()
        }
        if current != wanted, iio.writeDeviceAttribute(device, "current_timestamp_clock", wanted) == nil {
            current = wanted
        }
        guard current == wanted else {
            throw IIOError("setting current_timestamp_clock to \(wanted)", on: shownName, errno: Errno(EINVAL),
                           fix: "its timestamps stay on the \(current) clock, the accelerometer's are on the "
                               + "\(wanted) clock: install udev/70-tiltd.rules to allow it")
        }
        clock = current
        let rate = found.info.samplingFrequencyHertz ?? 0
        silenceNanoseconds = Int64(max(1, rate > 0 ? 4 / rate : 1) * 1e9)
        periodNanoseconds = rate > 0 ? Int64(1e9 / rate) : 0
        waitNanoseconds = min(3_000_000, rate > 0 ? Int64(0.5e9 / rate) : 3_000_000)
        let id = found.info.id
        if iio.currentTriggerName(device) == nil,
           let name = AccelerometerDiscovery.triggerCandidate(id: id, name: found.info.name,
                                                            allDevices: iio.devices(context.handle), iio: iio) {
            let trigger = iio.devices(context.handle).first { iio.isTrigger($0) && iio.deviceName($0) == name }
            if let error = iio.setTrigger(device, trigger) {
                throw IIOError("setting trigger \(name) (trigger/current_trigger)", on: shownName, errno: error)
            }
        }
        switch iio.createBuffer(device, samples: max(1, scansPerRead)) {
        case .success(let created): buffer = created
        case .failure(let errno): throw IIOError("enabling the gyroscope's buffer", on: shownName, errno: errno)
        }
        if let buffer, let errno = iio.setNonBlocking(buffer) {
            close()
            throw IIOError("making the gyroscope's buffer non-blocking", on: shownName, errno: errno)
        }
    }

    deinit { close() }

    /// The gyro's raw counts at the accelerometer's device time `time`, or
    /// nil when the scans that have arrived do not cover it (before the
    /// first, or a gyro lagging the accelerometer: `GyroTimeline.covers`).
    /// The sample is then fused from the accelerometer alone: a rate held
    /// from a lagging scan would turn the estimate by rate × lag.
    ///
    /// A gyro a little late is waited for, at most `waitNanoseconds` of wall
    /// time, and not again after a wait that ended with nothing new until it
    /// delivers a scan, so a stalled gyro never slows the accelerometer's
    /// path by more than one such wait.
    ///
    /// - Parameter notice: told once per run when the gyro has covered no
    ///   sample for `lagNoticeNanoseconds` of the accelerometer's time.
    /// - Throws: `IIOError` with ETIMEDOUT when the newest scan is older
    ///   than the silence limit (a buffer that died: its script ended, its
    ///   trigger stopped), or what reading the buffer raised (ENODEV).
    func raw(at time: Int64, notice: (Diagnostic) -> Void = { _ in }) throws -> SIMD3<Double>? {
        if try drain(through: time) > 0 { mayWait = true }
        let newest = timeline.newestNanoseconds ?? firstAskedNanoseconds ?? time
        if firstAskedNanoseconds == nil { firstAskedNanoseconds = time }
        if time - newest > silenceNanoseconds {
            let seconds = CaptureRate.attributeText(Double(silenceNanoseconds) / 1e9)
            throw IIOError("reading the gyroscope's buffer", on: shownName, errno: Errno(ETIMEDOUT),
                           fix: "it delivered nothing for \(seconds) s of the accelerometer's time")
        }
        if !timeline.covers(time, nominalPeriodNanoseconds: periodNanoseconds), mayWait, timeline.count > 0 {
            try waitForScans(covering: time)
        }
        guard timeline.covers(time, nominalPeriodNanoseconds: periodNanoseconds) else {
            noteUncovered(at: time, notice: notice)
            return nil
        }
        uncoveredSinceNanoseconds = nil
        return timeline.raw(at: time)?.raw
    }

    /// Waits for scans until one covers `time` or `waitNanoseconds` pass.
    private func waitForScans(covering time: Int64) throws {
        let deadline = MonotonicClock.nanoseconds() + waitNanoseconds
        var delivered = false
        while !timeline.covers(time, nominalPeriodNanoseconds: periodNanoseconds) {
            let remaining = deadline - MonotonicClock.nanoseconds()
            guard remaining > 0, let buffer, let descriptor = iio.pollDescriptor(buffer) else { break }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32((remaining + 999_999) / 1_000_000)
            if poll(&request, 1, milliseconds) < 0 && errno != EINTR { break }
            if try drain(through: time) > 0 { delivered = true }
        }
        mayWait = delivered || timeline.covers(time, nominalPeriodNanoseconds: periodNanoseconds)
    }

    /// Counts an uncovered sample; says once when they have lasted.
    private func noteUncovered(at time: Int64, notice: (Diagnostic) -> Void) {
        let since = uncoveredSinceNanoseconds ?? time
        uncoveredSinceNanoseconds = since
        guard !lagReported, time - since >= GyroBufferedReader.lagNoticeNanoseconds else { return }
        lagReported = true
        let behind = timeline.newestNanoseconds.map { " (its newest scan is \((time - $0) / 1_000_000) ms behind)" } ?? ""
        notice(.notice("the gyroscope \(shownName) lags the accelerometer by more than "
            + "\(CaptureRate.attributeText(Double(waitNanoseconds) / 1e6)) ms\(behind): "
            + "samples it does not cover are fused from the accelerometer alone"))
    }

    /// Appends the scans that have arrived to the timeline, without
    /// waiting, until one is later than `time`: a gyro running ahead (the
    /// accelerometer's samples read late, in a burst) keeps its later scans
    /// in its buffer for the samples that need them, rather than pushing
    /// the ones this sample needs out of the timeline.
    ///
    /// - Returns: how many scans were appended.
    /// - Throws: `IIOError` (ENODEV when the device vanished) for any
    ///   failure but "nothing yet" (EAGAIN).
    @discardableResult
    private func drain(through time: Int64) throws -> Int {
        guard let buffer else { return 0 }
        var appended = 0
        // Bounded: a gyro far ahead cannot keep the accelerometer waiting.
        while appended < timeline.capacity && (timeline.newestNanoseconds ?? .min) <= time {
            switch iio.refill(buffer) {
            case .failure(let errno) where errno.code == EAGAIN:
                return appended
            case .failure(let errno):
                throw IIOError("reading the gyroscope's buffer", on: shownName, errno: errno)
            case .success:
                let bytes = iio.bufferBytes(buffer)
                var offset = 0
                while offset + layout.scanBytes <= bytes.count {
                    let scan = layout.decode(bytes, at: offset)
                    if let time = scan.timestamp {
                        timeline.append(timeNanoseconds: time,
                                        raw: SIMD3(Double(scan.raw.x), Double(scan.raw.y), Double(scan.raw.z)))
                        appended += 1
                    }
                    offset += layout.scanBytes
                }
            }
        }
        return appended
    }

    /// Disables and frees the buffer; idempotent.
    func close() {
        if let buffer { iio.destroyBuffer(buffer) }
        buffer = nil
    }
}
