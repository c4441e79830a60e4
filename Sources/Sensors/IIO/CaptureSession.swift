import Motion
#if canImport(Glibc)
import Glibc
#endif

/// One open device being captured: its context, the chosen accelerometer
/// and a polled or buffered reader. Lives on the capture thread only.
final class CaptureSession {
    let context: IIOContext
    let status: CaptureStatus
    private let polled: PolledReader?
    let buffered: BufferedReader?
    /// Samples the first buffered refill delivered while checking the buffer works.
    private var pending: [CapturedSample] = []

    /// Opens the context, chooses the device, sets its rate and starts capture.
    ///
    /// - Parameters:
    ///   - configuration: URI, device, mode, rate and matrix override.
    ///   - notice: receives one-line messages (fallback to polling, raised rate).
    /// - Throws: `IIOError`, `AccelerometerSelectionError`, `DeviceAttributeError`.
    init(configuration: CaptureConfiguration, notice: (String) -> Void) throws {
        context = try IIOContext(uri: configuration.uri)
        let found = try CaptureSession.choose(configuration, context: context, notice: notice)
        var info = found.info
        if let matrix = configuration.mountMatrix {
            info.mountMatrix = matrix
            info.mountMatrixSource = .commandLine
        }
        let rate = CaptureSession.setRate(configuration.rateHertz, found: found, info: &info, notice: notice)

        var buffered: BufferedReader? = nil
        if configuration.mode == .auto && !info.bufferCapable {
            notice("\(info.displayName) has no buffer (no scan_elements): polling at "
                + "\(CaptureRate.attributeText(rate)) Hz")
        } else if configuration.mode != .poll {
            do {
                guard info.bufferCapable else {
                    throw IIOError("buffered capture", on: info.displayName, errno: Errno(ENOTSUP),
                                   fix: "it has no buffer (no scan_elements): use --mode poll")
                }
                let reader = try BufferedReader(found: found, context: context, notice: notice)
                buffered = reader
                context.setTimeout(seconds: max(configuration.bufferSilenceSeconds, 3 / rate))
                var first: [CapturedSample] = []
                try reader.refill { raw, time in
                    first.append(CaptureSession.sample(raw: raw, time: time, info: info))
                }
                pending = first
                context.setTimeout(seconds: max(1, 4 / rate))
            } catch let error as IIOError where configuration.mode == .auto {
                buffered?.close()
                buffered = nil
                let reason = error.errno.code == ETIMEDOUT
                    ? "its buffer delivered nothing for \(configuration.bufferSilenceSeconds) s: "
                        + "check trigger/current_trigger and sampling_frequency" : "\(error)"
                notice("buffered capture of \(info.displayName) unavailable (\(reason)); polling at "
                    + "\(CaptureRate.attributeText(rate)) Hz instead")
            }
        }
        self.buffered = buffered
        polled = buffered == nil ? PolledReader(axes: found.axes, shownName: info.displayName) : nil
        status = CaptureStatus(info: info, mode: buffered == nil ? .poll : .buffer, rateHertz: rate,
                               clock: buffered?.clock ?? "monotonic")
    }

    /// Captures until `shouldStop` is true or `emit` returns false.
    ///
    /// - Returns: false when `emit` asked to stop.
    /// - Throws: the `IIOError` that interrupted capture (device gone, timeout).
    func run(shouldStop: () -> Bool, emit: (CapturedSample) -> Bool) throws -> Bool {
        for sample in pending where !emit(sample) { return false }
        pending = []
        if let buffered {
            var keepGoing = true
            while keepGoing && !shouldStop() {
                let info = status.info
                try buffered.refill { raw, time in
                    if keepGoing { keepGoing = emit(CaptureSession.sample(raw: raw, time: time, info: info)) }
                }
            }
            return keepGoing
        }
        guard let polled else { return true }
        // Absolute deadlines: the k-th read is due at start + k·period, so the
        // time each read takes does not accumulate as drift.
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
            if !emit(CapturedSample(reading: Reading(timestampNanoseconds: time,
                                                     acceleration: status.info.acceleration(raw: raw)),
                                    raw: raw)) { return false }
            next += period
            let now = MonotonicClock.nanoseconds()
            if now - next > period { next += (now - next) / period * period }  // skip missed ticks, no burst
        }
        return true
    }

    /// Disables the buffer, if any. The context is freed with the session.
    func close() { buffered?.close() }

    private static func sample(raw: SIMD3<Int64>, time: Int64?, info: AccelerometerInfo) -> CapturedSample {
        let counts = SIMD3<Double>(Double(raw.x), Double(raw.y), Double(raw.z))
        return CapturedSample(
            reading: Reading(timestampNanoseconds: time ?? MonotonicClock.nanoseconds(),
                             acceleration: info.acceleration(raw: counts)),
            raw: counts)
    }

    private static func choose(_ configuration: CaptureConfiguration, context: IIOContext,
                               notice: (String) -> Void) throws -> AccelerometerDiscovery.Found {
        var skipped: [any Error] = []
        let found = try AccelerometerDiscovery(context: context).accelerometers(skipped: &skipped)
        for error in skipped { notice("skipping an accelerometer: \(error)") }
        let deviceCount = LibIIO.devices(context.pointer).filter { !LibIIO.isTrigger($0) }.count
        let index = try AccelerometerSelector(query: configuration.device)
            .choose(from: found.map(\.info), uri: context.uri, deviceCount: deviceCount)
        return found[index]
    }

    /// Writes the chosen rate to `sampling_frequency` when it differs and
    /// returns the rate in use.
    private static func setRate(_ requested: Double?, found: AccelerometerDiscovery.Found,
                                info: inout AccelerometerInfo, notice: (String) -> Void) -> Double {
        let rate = CaptureRate.choose(requested: requested, info: info)
        if info.samplingFrequencyHertz == nil, let requested, requested > rate {
            notice("\(info.displayName) has no sampling_frequency: polling at \(CaptureRate.attributeText(rate)) Hz, "
                + "the most tiltd polls, not the \(CaptureRate.attributeText(requested)) Hz asked for")
        }
        guard let current = info.samplingFrequencyHertz, current != rate else { return rate }
        let text = CaptureRate.attributeText(rate)
        if let errno = LibIIO.writeDeviceAttribute(found.device, "sampling_frequency", text) {
            notice("cannot set sampling_frequency of \(info.displayName) to \(text) Hz: \(errno): "
                + "\(IIOError.advice(for: errno)); polling at \(text) Hz anyway")
            return rate
        }
        info.samplingFrequencyHertz = rate
        if let requested, requested != rate {
            notice("\(info.displayName) does not offer \(CaptureRate.attributeText(requested)) Hz; using \(text) Hz")
        } else if requested == nil {
            notice("raised sampling_frequency of \(info.displayName) from \(CaptureRate.attributeText(current)) Hz "
                + "to \(text) Hz (below 10 Hz sensors deliver little or no data)")
        }
        return rate
    }
}
