import Devices
import Knob
import Logging
import Motion
import Platform
import ServiceLifecycle
import Synchronization

/// A live capture wired to its consumers, as a service of the lifecycle:
/// the sample path (`SampleRun`: pipeline and sinks, for `tiltd run` and
/// `serve`), a trace (`Setting.record`, `tiltd record`), and the `Setting.count` and
/// `Setting.duration` limits. SIGINT, SIGTERM and SIGHUP (through the lifecycle's
/// graceful shutdown) end it: the buffer is disabled and the trace flushed
/// and closed before `run()` returns.
///
/// Samples flow on the capture thread: capture → trace recorder (which
/// writes from a thread of its own, `TraceRecorder`) → sample run.
public final class DeviceRun: Service, @unchecked Sendable {
    // Safe to share: `capture` is a Mutex (`ended`, a latch, opens under
    // it); every other mutable property is touched only inside `handle`, on
    // the capture thread of the one capture that runs at a time (`open`
    // starts a new one only after `close` has waited for the previous one
    // to finish), or after the run has ended.
    private let configuration: CaptureConfiguration
    private let sampleRun: SampleRun?
    private let tracePath: String?
    private var trace: TraceRecorder?
    private let countLimit: Int?
    private let durationSeconds: Double?
    private let openAtStart: Bool
    private let version: String
    private let logger: Logger
    private let clock: any Clock<Duration>
    private let demand: CaptureDemand
    private var samples = 0
    private var failure: String?
    /// The capture running now, if any.
    private let capture = Mutex<CaptureLoop?>(nil)
    /// Opened by `end()`: a limit, a signal or a failure.
    private let ended = Latch()

    /// - Parameters:
    ///   - capture: which device and how.
    ///   - sampleRun: where readings go, or nil to only record.
    ///   - tracePath: `Setting.record` `FILE` / `Setting.out` `FILE`.
    ///   - count: stop after this many samples read.
    ///   - duration: stop after this many seconds.
    ///   - openAtStart: open the device when the run starts (false: the
    ///     caller opens and closes it with `open()`/`close()`, `Setting.onDemand`).
    ///   - version: tiltd's version, recorded in the trace header.
    ///   - logger: device notices and errors.
    ///   - clock: times `duration`.
    ///   - demand: what the consumers need from the capture's pace; told
    ///     here when a state passes the gate (the device moving).
    public init(capture: CaptureConfiguration, sampleRun: SampleRun?, tracePath: String? = nil,
                count: Int? = nil, duration: Double? = nil, openAtStart: Bool = true,
                version: String, logger: Logger = TiltdLog.logger, clock: any Clock<Duration> = ContinuousClock(),
                demand: CaptureDemand = CaptureDemand()) {
        self.configuration = capture
        self.sampleRun = sampleRun
        self.tracePath = tracePath
        self.countLimit = count
        self.durationSeconds = duration
        self.openAtStart = openAtStart
        self.version = version
        self.logger = logger
        self.clock = clock
        self.demand = demand
    }

    /// How long the end of a run waits for a slow disk to take the trace's
    /// last samples.
    public static let traceWait = Duration.seconds(30)

    /// Samples read so far (final once `run()` has returned).
    public var samplesRead: Int { samples }

    /// Runs until a limit, a shutdown signal or a fatal error.
    ///
    /// - Throws: `ReportedFailure` (already logged) when the device cannot be
    ///   opened at the start or the trace cannot be written.
    public func run() async throws {
        if openAtStart {
            do { try open() } catch {
                logger.error("\(error)")
                if configuration.source == .iio, DeviceListing.meansNothingToRead(error) {
                    logger.notice("\(DeviceListing.nothingToReadHint(uri: configuration.uri))")
                }
                throw ReportedFailure(description: "\(error)")
            }
        }
        // `Setting.duration` ends the run on the clock (the timer ends with the run).
        let limit = durationSeconds.map { seconds in
            Task { [self, clock] in
                if (try? await clock.sleep(for: .nanoseconds(Int64(seconds * 1e9)))) != nil { end() }
            }
        }
        defer { limit?.cancel() }
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await ended.wait()
            } onCancel: { self.end() }
        } onGracefulShutdown: { self.end() }
        await close()
        sampleRun?.finish()
        if let trace, let problem = await trace.close(waitingAtMost: DeviceRun.traceWait) { fail(problem) }
        if let failure { throw ReportedFailure(description: failure) }
    }

    /// Opens the device and starts capturing, unless a capture runs already.
    ///
    /// - Throws: why the device cannot be opened (bad URI, none found, busy).
    public func open() throws {
        let capture = configuration.makeCapture(demand: demand)
        let isNew = self.capture.withLock { current -> Bool in
            guard current == nil, !ended.isOpen else { return false }
            current = capture
            return true
        }
        guard isNew else { return }
        do {
            try capture.start { [self] event in
                let keepGoing = handle(event)
                if !keepGoing { end() }
                return keepGoing
            }
        } catch {
            self.capture.withLock { $0 = nil }
            throw error
        }
    }

    /// Stops the capture and returns once its thread has finished (buffer
    /// disabled); the run goes on (a later `open()` resumes it).
    public func close() async {
        let capture = self.capture.withLock { current -> CaptureLoop? in
            defer { current = nil }
            return current
        }
        capture?.stop()
        await capture?.finished()
        if capture != nil { sampleRun?.sink.deviceStopped(.released) }
    }

    /// Ends the run: a limit was reached, a signal came, or writing failed.
    public func end() {
        let capture = self.capture.withLock { current in
            ended.open()
            return current
        }
        capture?.stop()
    }

    /// Handles one capture event on the capture thread; false stops capture.
    private func handle(_ event: CaptureEvent) -> Bool {
        switch event {
        case .notice(let diagnostic):
            TiltdLog.log(diagnostic, to: logger)
        case .opened(let status):
            logger.notice("\(status.openedMessage)")
            reportStatus(status)
            if trace == nil, let tracePath {
                do {
                    trace = try TraceRecorder(path: tracePath, header: DeviceRun.header(status, version: version),
                                              logger: logger)
                } catch {
                    return fail("\(error)")
                }
            }
        case .statusChanged(let status):
            reportStatus(status)
        case .batchEnd:
            sampleRun?.endBatch()
        case .fault(let message, let time):
            logger.notice("\(message)")
            sampleRun?.sink.deviceStopped(.lost(message))
            trace?.appendGap(timestampNanoseconds: time, reason: message)
        case .sample(let sample):
            samples += 1
            if let trace {
                if let failure = trace.failure { return fail(failure) }
                do {
                    try trace.append(timestampNanoseconds: sample.reading.timestampNanoseconds,
                                     raw: sample.raw, acceleration: sample.reading.acceleration,
                                     rotationRate: sample.reading.rotationRate, rawRotation: sample.rawRotation)
                } catch {
                    return fail("\(error)")
                }
            }
            if let sampleRun {
                let states = sampleRun.stateCount
                sampleRun.process(sample.reading)
                if sampleRun.stateCount != states { demand.stateMade(atNanoseconds: sample.reading.timestampNanoseconds) }
            }
            if let countLimit, samples >= countLimit { return false }
        }
        return true
    }

    /// Tells the sinks the device's status (HasGyroscope on D-Bus).
    private func reportStatus(_ status: CaptureStatus) {
        sampleRun?.sink.captureStatus(status, fusingGyroscope: configuration.gyroEnabled && status.readsGyroscope)
    }

    @discardableResult
    private func fail(_ message: String) -> Bool {
        logger.error("\(message)")
        failure = failure ?? message
        return false
    }

    /// The trace header for a device: metadata enough to replay and to know
    /// where the samples came from.
    public static func header(_ status: CaptureStatus, version: String) -> TraceHeader {
        let info = status.info
        var extra = ["device": info.id, "mode": status.mode.rawValue, "clock": status.clock,
                     "scale-source": info.scaleSource, "offset-source": info.offsetSource]
        if let location = info.location { extra["location"] = location }
        if let pad = status.pad {
            extra["source"] = "evdev \(pad.usbID) \(pad.family.rawValue)"
            extra["mode"] = "events"
        }
        if let rotation = status.rotation {
            // The samples' acceleration is the hub's "up" × 9.80665 m/s², not the accelerometer's.
            extra["source"] = "fused rotation \(rotation.displayName), components "
                + (rotation.convention.map(String.init(describing:)) ?? "unchecked")
        }
        return TraceHeader(name: info.name, label: info.label, uri: info.uri, scale: info.scale,
                           offset: info.offset, mountMatrix: info.mountMatrix,
                           mountMatrixSource: info.mountMatrixSource.rawValue,
                           samplingFrequencyHertz: status.pad == nil ? status.rateHertz : nil, tiltdVersion: version,
                           extra: extra, gyro: status.gyro?.traceHeader ?? status.pad?.gyroTraceHeader)
    }
}
