import ArgumentParser
import Dispatch
import Knob
import Motion
import Sensors
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A live capture wired to its consumers: the pipeline and state sinks
/// (`tiltd run`), a trace (`--record`, `tiltd record`), the `--count` and
/// `--duration` limits and SIGINT/SIGTERM.
///
/// Samples flow on the capture thread: capture → trace → pipeline → sinks.
final class DeviceRun: @unchecked Sendable {
    // Safe to share: `control` is a Mutex; every other mutable property is
    // touched only inside `handle`, on the capture thread of the one capture
    // that runs at a time (`open` starts a new one only after `close` has
    // waited for the previous one to finish).
    private let configuration: CaptureConfiguration
    private var pipeline: TiltPipeline?
    private let sinks: [any StateSink]
    private let tracePath: String?
    private var trace: TraceWriter?
    private let countLimit: Int?
    private let durationSeconds: Double?
    private var samples = 0
    private var reportedDiagnostics: Set<String> = []
    private var failure: String?
    private let control = Mutex(Control())

    private struct Control {
        var capture: (any MotionCapture)?
        var ended = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// - Parameters:
    ///   - capture: which device and how.
    ///   - pipeline: the Motion pipeline, or nil to only record.
    ///   - sinks: where states go (stdout, sockets).
    ///   - tracePath: `--record FILE` / `--out FILE`.
    ///   - count: stop after this many samples read.
    ///   - duration: stop after this many seconds.
    init(capture: CaptureConfiguration, pipeline: PipelineConfiguration?, sinks: [any StateSink],
         tracePath: String?, count: Int?, duration: Double?) {
        self.configuration = capture
        self.pipeline = pipeline.map { TiltPipeline(configuration: $0) }
        self.sinks = sinks
        self.tracePath = tracePath
        self.countLimit = count
        self.durationSeconds = duration
    }

    /// Runs until a limit, a signal or a fatal error; returns the number of
    /// samples read.
    ///
    /// - Parameter openNow: open the device at once (false: the caller opens
    ///   and closes it with `open()`/`close()`, e.g. while clients are connected).
    /// - Throws: `ExitCode.failure` after printing why, when the device cannot
    ///   be opened at once or the trace cannot be written.
    func run(openNow: Bool = true) async throws -> Int {
        // SIGINT/SIGTERM end the run; the capture thread then disables the
        // buffer and this function closes the trace before returning (exit 0).
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in end() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        if openNow {
            do { try open() } catch {
                DeviceDiagnostics.print("\(error)")
                throw ExitCode.failure
            }
        }
        if let durationSeconds {
            DispatchQueue.global().asyncAfter(deadline: .now() + durationSeconds) { [self] in end() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = control.withLock { control -> Bool in
                if control.ended { return true }
                control.waiter = continuation
                return false
            }
            if ended { continuation.resume() }
        }
        close()
        for sink in sinks { sink.flush() }
        if let trace {
            do { try trace.close() } catch { DeviceDiagnostics.print("\(error)"); failure = failure ?? "\(error)" }
        }
        if failure != nil { throw ExitCode.failure }
        return samples
    }

    /// Opens the device and starts capturing, unless a capture runs already.
    ///
    /// - Throws: why the device cannot be opened (bad URI, none found, busy).
    func open() throws {
        let capture = configuration.makeCapture()
        let isNew = control.withLock { control -> Bool in
            guard control.capture == nil, !control.ended else { return false }
            control.capture = capture
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
            control.withLock { $0.capture = nil }
            throw error
        }
    }

    /// Stops the capture and waits until its buffer is disabled; the run goes
    /// on (a later `open()` resumes it).
    func close() {
        let capture = control.withLock { control -> (any MotionCapture)? in
            defer { control.capture = nil }
            return control.capture
        }
        capture?.stop()
        capture?.waitUntilFinished()
    }

    /// Ends the run: a limit was reached, a signal came, or writing failed.
    func end() {
        let (capture, waiter) = control.withLock { control in
            control.ended = true
            defer { control.waiter = nil }
            return (control.capture, control.waiter)
        }
        capture?.stop()
        waiter?.resume()
    }

    /// Handles one capture event on the capture thread; false stops capture.
    private func handle(_ event: CaptureEvent) -> Bool {
        switch event {
        case .notice(let message):
            DeviceDiagnostics.print(message)
        case .opened(let status):
            DeviceDiagnostics.print(status.openedMessage)
            if trace == nil, let tracePath {
                do {
                    trace = try TraceWriter(path: tracePath, header: DeviceRun.header(status))
                } catch {
                    return fail("\(error)")
                }
            }
        case .fault(let message, let time):
            DeviceDiagnostics.print(message)
            do { try trace?.appendGap(timestampNanoseconds: time, reason: message) } catch {
                return fail("\(error)")
            }
        case .sample(let sample):
            samples += 1
            if let trace {
                do {
                    try trace.append(timestampNanoseconds: sample.reading.timestampNanoseconds,
                                     raw: sample.raw, acceleration: sample.reading.acceleration,
                                     rotationRate: sample.reading.rotationRate, rawRotation: sample.rawRotation)
                } catch {
                    return fail("\(error)")
                }
            }
            // Optional chaining mutates the pipeline in place (no copy per sample).
            if let tilt = pipeline?.process(sample.reading) {
                let state = KnobState(tilt: tilt)
                for sink in sinks { sink.emit(state) }
            }
            if pipeline?.hasDiagnostics == true { reportDiagnostics() }
            if let countLimit, samples >= countLimit { return false }
        }
        return true
    }

    private func reportDiagnostics() {
        guard var pipeline else { return }
        for diagnostic in pipeline.takeDiagnostics() where !reportedDiagnostics.contains(diagnostic.kind) {
            reportedDiagnostics.insert(diagnostic.kind)
            DeviceDiagnostics.print(diagnostic.description)
        }
        self.pipeline = pipeline
    }

    private func fail(_ message: String) -> Bool {
        DeviceDiagnostics.print(message)
        failure = message
        return false
    }

    /// The trace header for a device: metadata enough to replay and to know
    /// where the samples came from.
    static func header(_ status: CaptureStatus) -> TraceHeader {
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
                           samplingFrequencyHertz: status.pad == nil ? status.rateHertz : nil, tiltdVersion: Tiltd.version,
                           extra: extra, gyro: status.gyro?.traceHeader ?? status.pad?.gyroTraceHeader)
    }
}
