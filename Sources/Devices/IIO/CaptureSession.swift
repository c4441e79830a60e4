import Motion
import Wording
#if canImport(Glibc)
import Glibc
#endif

/// One open device being captured: its context, the chosen accelerometer
/// (with its gyroscope, when paired) and a polled or buffered reader. Lives
/// on the capture thread only.
///
/// A gyro on the accelerometer's own device shares its buffer scan; a
/// sibling or hub gyro is captured through its own buffer and merged by
/// device timestamp (`GyroTimeline`), or, without scan elements or when its
/// buffer is refused, read through its raw attributes right after each
/// accelerometer sample. When a gyro read fails or its buffer falls silent
/// the capture says so once and goes on with the accelerometer alone.
final class CaptureSession {
    let context: IIOContext
    var status: CaptureStatus {
        didSet { readsGyroscope = status.readsGyroscope }
    }
    /// `status.readsGyroscope`, kept beside it: the capture loop asks after
    /// every sample, and reading it through `status` copies the whole status.
    private(set) var readsGyroscope = false
    private let polled: PolledReader?
    let buffered: BufferedReader?
    /// Scans the first buffered refill delivered while checking the buffer works.
    private var pending: [(raw: SIMD3<Int64>, time: Int64?, gyro: SIMD3<Int64>?)] = []
    /// The gyro read separately from the accelerometer, nil when it shares the scan or there is none.
    private var gyroPoller: PolledReader?
    /// A separate gyro captured through its own buffer, merged by device timestamp.
    private var gyroBuffer: GyroBufferedReader?
    /// The hub's fused rotation and the choice of its convention (`Setting.source` `rotation`).
    var rotation: (reader: RotationReader, chooser: RotationConventionChooser)? {
        didSet { hasRotation = rotation != nil }
    }
    /// Whether `rotation` is set, checked for every sample without copying it.
    private(set) var hasRotation = false
    /// How late a buffered sample may reach a consumer.
    let latency: CaptureLatency
    /// What the consumers need from the pace (a DSU subscriber, rest).
    private let demand: CaptureDemand
    /// The paced reader's clock and waits.
    private let waiting: any CaptureWaiting
    /// The sample time of the newest sample, for the rest check.
    private var newestNanoseconds: Int64?

    /// Opens the context, chooses the device, sets its rate and starts capture.
    ///
    /// - Parameters:
    ///   - configuration: URI, device, mode, rate and matrix override.
    ///   - notice: receives one-line messages (fallback to polling, raised rate).
    /// - Throws: `IIOError`, `AccelerometerSelectionError`, `DeviceAttributeError`.
    ///   - demand: what the consumers need from the pace of a paced capture.
    ///   - waiting: the paced reader's clock and waits (a virtual clock in tests).
    init(configuration: CaptureConfiguration, backend: any IIOBackend, demand: CaptureDemand = CaptureDemand(),
         waiting: any CaptureWaiting = PollWaiting(), notice: (Diagnostic) -> Void) throws {
        latency = configuration.latency
        self.demand = demand
        self.waiting = waiting
        context = try IIOContext(uri: configuration.uri, backend: backend)
        let found = try CaptureSession.choose(configuration, context: context, notice: notice)
        var info = found.info
        if let matrix = configuration.mountMatrix {
            info.mountMatrix = matrix
            info.mountMatrixSource = .commandLine
        }
        var gyro = configuration.gyroEnabled ? found.gyro : nil
        if configuration.attitude == .rotation {
            rotation = CaptureSession.checkRotation(found, info: info, context: context, notice: notice)
            if let convention = rotation?.chooser.current {
                info.rotation?.convention = convention
                gyro = nil  // the hub's rotation has fused it already
            }
        }
        if configuration.gyroEnabled, let problem = info.gyroProblem {
            notice(.notice("cannot use the gyroscope paired with \(info.displayName): \(problem); "
                + "continuing with the accelerometer alone"))
        }
        let rate = CaptureSession.setRate(configuration.rateHertz, found: found, iio: backend, info: &info,
                                          forFusion: gyro != nil, notice: notice)
        if let found = gyro, found.info.pairing != .sameDevice {
            gyro?.info.samplingFrequencyHertz = CaptureSession.matchGyroRate(rate, gyro: found, iio: backend,
                                                                             notice: notice)
        } else if gyro != nil {
            gyro?.info.samplingFrequencyHertz = info.samplingFrequencyHertz
        }
        let gyroAxesInScan = gyro.flatMap { $0.info.pairing == .sameDevice && $0.info.bufferCapable ? $0.axes : nil }

        var buffered: BufferedReader? = nil
        if configuration.mode == .auto && !info.bufferCapable {
            notice(.notice("\(info.displayName) has no buffer (no scan_elements): polling at "
                + "\(CaptureRate.attributeText(rate)) Hz"))
        } else if configuration.mode != .poll {
            do {
                guard info.bufferCapable else {
                    throw IIOError("buffered capture", on: info.displayName, errno: Errno(ENOTSUP),
                                   fix: "it has no buffer (no scan_elements): use \(Setting.mode) poll")
                }
                let reader = try CaptureSession.openBuffer(found, context: context, gyroAxes: gyroAxesInScan ?? [],
                                                           rate: rate, latency: configuration.latency,
                                                           demand: demand, notice: notice)
                buffered = reader
                // Before the first refill, so the gyro's scans start with the accelerometer's.
                if let gyro, gyroAxesInScan == nil {
                    gyroBuffer = CaptureSession.openGyroBuffer(gyro, context: context, clock: reader.clock,
                                                               scansPerRead: reader.capacity ?? 1,
                                                               notice: notice)
                }
                CaptureSession.setTimeout(max(configuration.bufferSilenceSeconds, 3 / rate), context: context,
                                          reader: reader)
                var first: [(raw: SIMD3<Int64>, time: Int64?, gyro: SIMD3<Int64>?)] = []
                if reader.capacity == nil {
                    try reader.refill { raw, time, gyroRaw in first.append((raw, time, gyroRaw)) }
                } else {
                    try reader.read(due: waiting.nanoseconds(), waiting: waiting) { raw, time, gyroRaw in
                        first.append((raw, time, gyroRaw))
                    }
                }
                pending = first
                CaptureSession.setTimeout(max(1, 4 / rate), context: context, reader: reader)
            } catch let error as IIOError where configuration.mode == .auto {
                buffered?.close()
                buffered = nil
                gyroBuffer?.close()
                gyroBuffer = nil
                let reason = error.errno.code == ETIMEDOUT
                    ? "its buffer delivered nothing for \(configuration.bufferSilenceSeconds) s: "
                        + "check trigger/current_trigger and sampling_frequency" : "\(error)"
                notice(.notice("buffered capture of \(info.displayName) unavailable (\(reason)); polling at "
                    + "\(CaptureRate.attributeText(rate)) Hz instead"))
            }
        }
        self.buffered = buffered
        polled = buffered == nil ? PolledReader(iio: backend, axes: found.axes, shownName: info.displayName) : nil
        if let gyro, buffered == nil, configuration.mode != .poll {
            gyroBuffer = CaptureSession.openGyroBuffer(gyro, context: context, clock: "monotonic", notice: notice)
        }
        if let gyro, gyroBuffer == nil, buffered == nil || gyroAxesInScan == nil {
            gyroPoller = PolledReader(iio: backend, axes: gyro.axes, shownName: gyro.info.displayName, kind: "anglvel")
        }
        status = CaptureStatus(info: info, mode: buffered == nil ? .poll : .buffer, rateHertz: rate,
                               clock: buffered?.clock ?? "monotonic", gyro: gyro?.info,
                               rotation: rotation == nil ? nil : info.rotation)
        // Observers do not run in an initializer.
        readsGyroscope = status.readsGyroscope
        hasRotation = rotation != nil
    }

    /// Captures until `shouldStop` is true or `emit` returns false.
    ///
    /// - Returns: false when `emit` asked to stop.
    /// - Throws: the `IIOError` that interrupted capture (device gone, timeout).
    /// - Parameter notice: receives one-line messages (a gyro lost mid-run).
    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void = { _ in },
             emit: (CapturedSample) -> Bool) throws -> Bool {
        try run(shouldStop: shouldStop, notice: notice, emit: emit, endBatch: {})
    }

    /// As `run`; a paced capture calls `endBatch` after the samples of each
    /// wake-up (also the last, when `emit` asked to stop within it).
    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void = { _ in },
             emit: (CapturedSample) -> Bool, endBatch: () -> Void) throws -> Bool {
        let first = pending
        pending = []
        for scan in first where !emit(sample(raw: scan.raw, time: scan.time, gyroRaw: scan.gyro, notice: notice)) {
            return false
        }
        if let buffered {
            var keepGoing = true
            func deliver(_ raw: SIMD3<Int64>, _ time: Int64?, _ gyroRaw: SIMD3<Int64>?) {
                guard keepGoing else { return }
                let captured = sample(raw: raw, time: time, gyroRaw: gyroRaw, notice: notice)
                newestNanoseconds = captured.reading.timestampNanoseconds
                keepGoing = emit(captured)
            }
            guard buffered.capacity != nil else {
                while keepGoing && !shouldStop() { try buffered.refill(deliver) }
                return keepGoing
            }
            // Paced: a wake every budget on an absolute schedule (so the time
            // each wake takes does not add up), the budget looked at again
            // before each wake. A scan that arrives just after a wake waits
            // one budget, no more; the kernel's watermark stays at the
            // whole periods within the budget (`scansPerWake`).
            let period = Int64((1e9 / status.rateHertz).rounded())
            let budgetScans = latency.scansPerWake(rateHertz: status.rateHertz)
            // No wait longer than the most scans a wake-up reads: the buffer
            // (twice that, the kernel's four times) is sized for it.
            let longest = Double(CaptureLatency.maximumScansPerWake) / status.rateHertz
            var due = waiting.nanoseconds()
            while keepGoing && !shouldStop() {
                let budget = min(longest, demand.budgetSeconds(latency: latency, atNanoseconds: newestNanoseconds))
                // A budget shorter than one period (0 included: a consumer
                // needs every sample at once) is woken by each scan; one of
                // a period or more waits on the schedule, even when that
                // reads one scan or two (16 ms at 100 Hz: 62.5 wake-ups a
                // second, not 100).
                let eachScan = budget * status.rateHertz < 1
                try buffered.changeWatermark(to: eachScan ? 1 : budgetScans, deliver)
                if eachScan {
                    due = waiting.nanoseconds()
                } else {
                    due += Int64((budget * 1e9).rounded())
                    let now = waiting.nanoseconds()
                    if due < now - period { due = now }  // behind (a slow consumer): no burst of catch-up wakes
                }
                // Ended even when the read fails after some scans, so none is held back.
                defer { endBatch() }
                try buffered.read(due: due, waiting: waiting, deliver)
            }
            return keepGoing
        }
        guard let polled else { return true }
        // Absolute deadlines: the k-th read is due at start + k·period, so the
        // time each read takes does not accumulate as drift. At rest (with a
        // latency budget and no one needing every sample) a read is due
        // every rest budget instead (`CaptureDemand.restBudgetSeconds`).
        let period = Int64((1e9 / status.rateHertz).rounded())
        var next = MonotonicClock.nanoseconds()
        while !shouldStop() {
            // Sleep in slices so a stop request is seen within 100 ms at any rate.
            while MonotonicClock.nanoseconds() < next && !shouldStop() {
                MonotonicClock.sleep(untilNanoseconds: min(next, MonotonicClock.nanoseconds() + 100_000_000))
            }
            if shouldStop() { break }
            let time = MonotonicClock.nanoseconds()
            let raw = try polled.read()
            let counts = SIMD3<Int64>(Int64(raw.x), Int64(raw.y), Int64(raw.z))
            if !emit(sample(raw: counts, time: time, gyroRaw: nil, notice: notice)) { return false }
            newestNanoseconds = time
            let rest = latency.budgetSeconds > 0 && !demand.wantsEverySampleAtOnce
                ? demand.restBudgetSeconds(atNanoseconds: time) : nil
            next += rest.map { max(period, Int64($0 * 1e9)) } ?? period
            let now = MonotonicClock.nanoseconds()
            if now - next > period { next += (now - next) / period * period }  // skip missed ticks, no burst
        }
        return true
    }

    /// Opens the accelerometer's buffer: paced, holding enough scans for the
    /// slowest pace (at rest), when a latency budget is given and the backend
    /// offers non-blocking reads and a poll descriptor (the local one); else
    /// the one-scan buffer.
    private static func openBuffer(_ found: AccelerometerDiscovery.Found, context: IIOContext,
                                   gyroAxes: [IIOChannelHandle], rate: Double, latency: CaptureLatency,
                                   demand: CaptureDemand, notice: (Diagnostic) -> Void) throws -> BufferedReader {
        guard latency.budgetSeconds > 0 else {
            return try BufferedReader(found: found, context: context, gyroAxes: gyroAxes, notice: notice)
        }
        let budgetScans = latency.scansPerWake(rateHertz: rate)
        // The settled budget is the longest a capture waits at rest.
        let restScans = CaptureLatency.scansPerWake(
            rateHertz: rate, budgetSeconds: max(latency.budgetSeconds, CaptureLatency.settledBudgetSeconds))
        do {
            let paced = try BufferedReader(found: found, context: context, gyroAxes: gyroAxes,
                                           capacity: 2 * max(budgetScans, restScans),
                                           watermark: demand.wantsEverySampleAtOnce ? 1 : budgetScans, notice: notice)
            if paced.pollDescriptor != nil { return paced }
            paced.close()
        } catch let error as IIOError where error.errno.code == ENOSYS {
            // iiod's network backend reads only through blocking refills.
        }
        return try BufferedReader(found: found, context: context, gyroAxes: gyroAxes, notice: notice)
    }

    /// Sets how long a refill (or a paced read) waits for a scan.
    private static func setTimeout(_ seconds: Double, context: IIOContext, reader: BufferedReader) {
        context.setTimeout(seconds: seconds)
        reader.timeoutNanoseconds = Int64(seconds * 1e9)
    }

    /// Disables the buffer, if any. The context is freed with the session.
    func close() {
        buffered?.close()
        gyroBuffer?.close()
    }

    /// One sample from the accelerometer's counts and the gyro's (from the
    /// scan, or read now from its attributes).
    private func sample(raw: SIMD3<Int64>, time: Int64?, gyroRaw: SIMD3<Int64>?,
                        notice: (Diagnostic) -> Void) -> CapturedSample {
        let counts = SIMD3<Double>(Double(raw.x), Double(raw.y), Double(raw.z))
        let time = time ?? MonotonicClock.nanoseconds()
        var gyroCounts = gyroRaw.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
        do {
            // At most one of them: a poller only where no gyro buffer opened.
            if let reader = gyroBuffer {
                gyroCounts = try reader.raw(at: time, notice: notice)
            } else if let poller = gyroPoller {
                gyroCounts = try poller.read()
            }
        } catch {
            let name = gyroBuffer?.shownName ?? gyroPoller?.shownName ?? ""
            notice(.notice("lost the gyroscope \(name): \(error); continuing with the accelerometer alone"))
            gyroBuffer?.close()
            gyroBuffer = nil
            gyroPoller = nil
            status.gyro = nil
        }
        let rate = gyroCounts.flatMap { counts in status.gyro.map { $0.rotationRate(raw: counts) } }
        var acceleration = status.info.acceleration(raw: counts)
        if let up = rotationUp(accelerometer: acceleration, notice: notice) { acceleration = up }
        return CapturedSample(
            reading: Reading(timestampNanoseconds: time,
                             acceleration: acceleration, rotationRate: rate),
            raw: counts, rawRotation: rate == nil ? nil : gyroCounts)
    }

    private static func choose(_ configuration: CaptureConfiguration, context: IIOContext,
                               notice: (Diagnostic) -> Void) throws -> AccelerometerDiscovery.Found {
        var skipped: [any Error] = []
        let found = try AccelerometerDiscovery(context: context).accelerometers(skipped: &skipped)
        for error in skipped { notice(.notice("skipping an accelerometer: \(error)")) }
                let index = try AccelerometerSelector(query: configuration.device)
            .choose(from: found.map(\.info), uri: context.uri, deviceCount: context.deviceCount)
        return found[index]
    }

    /// Writes the chosen rate to `sampling_frequency` when it differs and
    /// returns the rate in use.
    private static func setRate(_ requested: Double?, found: AccelerometerDiscovery.Found, iio: any IIOBackend,
                                info: inout AccelerometerInfo, forFusion: Bool,
                                notice: (Diagnostic) -> Void) -> Double {
        let rate = forFusion ? CaptureRate.chooseForFusion(requested: requested, info: info)
            : CaptureRate.choose(requested: requested, info: info)
        if info.samplingFrequencyHertz == nil, let requested, requested > rate {
            notice(.notice("\(info.displayName) has no sampling_frequency: polling at \(CaptureRate.attributeText(rate)) Hz, "
                + "the most tiltd polls, not the \(CaptureRate.attributeText(requested)) Hz asked for"))
        }
        guard let current = info.samplingFrequencyHertz, current != rate else { return rate }
        let text = CaptureRate.attributeText(rate)
        if let errno = iio.writeDeviceAttribute(found.device, "sampling_frequency", text) {
            notice(.notice("cannot set sampling_frequency of \(info.displayName) to \(text) Hz: \(errno): "
                + "\(IIOError.advice(for: errno)); polling at \(text) Hz anyway"))
            return rate
        }
        info.samplingFrequencyHertz = rate
        if let requested, requested != rate {
            notice(.notice("\(info.displayName) does not offer \(CaptureRate.attributeText(requested)) Hz; using \(text) Hz"))
        } else if requested == nil && forFusion && rate >= CaptureRate.fusionMinimumHertz {
            notice(.notice("raised sampling_frequency of \(info.displayName) from \(CaptureRate.attributeText(current)) Hz "
                + "to \(text) Hz for gyroscope fusion"))
        } else if requested == nil {
            notice(.notice("raised sampling_frequency of \(info.displayName) from \(CaptureRate.attributeText(current)) Hz "
                + "to \(text) Hz (below 10 Hz sensors deliver little or no data)"))
        }
        return rate
    }
}
