import Motion
import Platform
import Synchronization
import Wording

/// A device a `CaptureLoop` opens, reads until it fails, and opens again:
/// an IIO accelerometer (with its gyroscope or the hub's rotation) or an
/// evdev motion sensor. Used on one thread at a time.
protocol CaptureDevice {
    /// Which device and how; the retry times set the backoff.
    var configuration: CaptureConfiguration { get }
    /// The capture thread's name (`ps -L`).
    var threadName: String { get }
    /// What "still cannot open …" names: "the device", "the motion sensor".
    var noun: String { get }
    /// What a fault notice says is done about it: "retrying with backoff".
    var faultRemedy: String { get }
    /// Opens the device the first time.
    mutating func open(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession
    /// Opens it again after a loss (by default as the first time).
    mutating func reopen(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession
    /// The notice when a lost device is back.
    func resumedNotice(_ status: CaptureStatus) -> Diagnostic
    /// When a fault happened on the samples' clock, after the last sample.
    func faultTime(clock: String, lastSampleNanoseconds: Int64?) -> Int64
}

extension CaptureDevice {
    mutating func reopen(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession { try open(notice: notice) }
}

/// One open `CaptureDevice`, read on the capture thread.
protocol CaptureDeviceSession: AnyObject {
    var status: CaptureStatus { get }
    /// `status.readsGyroscope`, asked after every sample (a conformer may
    /// answer without copying its whole status).
    var readsGyroscope: Bool { get }
    /// Wakes a read blocked on the capture thread, from any thread; nil when
    /// reads end by themselves often enough for a stop to be seen.
    var cancel: (@Sendable () -> Void)? { get }
    /// Reads until `shouldStop` is true or `emit` returns false.
    ///
    /// - Returns: false when `emit` asked to stop.
    /// - Throws: what interrupted reading (device gone, timeout).
    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void, emit: (CapturedSample) -> Bool) throws -> Bool
    /// As `run`, calling `endBatch` after the samples of each wake-up (a
    /// paced capture; by default never).
    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void, emit: (CapturedSample) -> Bool,
             endBatch: () -> Void) throws -> Bool
    /// Releases the device (disables a buffer); the rest goes with the session.
    func close()
}

extension CaptureDeviceSession {
    var readsGyroscope: Bool { status.readsGyroscope }

    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void, emit: (CapturedSample) -> Bool,
             endBatch: () -> Void) throws -> Bool {
        try run(shouldStop: shouldStop, notice: notice, emit: emit)
    }
}

/// Captures a device on its own thread until stopped, surviving faults: a
/// device that errors or vanishes is reported, reopened with backoff, and
/// picked up again when it returns. The one loop behind IIO and evdev capture
/// (`CaptureConfiguration.makeCapture()`).
///
/// Events reach the handler on the capture thread, in order. A capture can be
/// started and stopped while the process runs (e.g. open on the first client,
/// close on the last); each loop runs once.
public final class CaptureLoop: @unchecked Sendable {
    // Safe to share: `state` is a Mutex; `device` and `session` are touched
    // by `start` before the thread exists and by the capture thread after.
    private var device: any CaptureDevice
    private var session: (any CaptureDeviceSession)?
    private let pause: @Sendable (_ seconds: Double, _ stop: () -> Bool) -> Void
    private let state = Mutex(State())

    private struct State {
        var stopping = false
        /// Opened when the capture thread has finished; nil until it starts.
        var finished: Latch?
        var cancel: (@Sendable () -> Void)?
    }

    /// - Parameter pause: waits out a backoff unless `stop` turns true (tests step it).
    init(_ device: any CaptureDevice,
         pause: @escaping @Sendable (_ seconds: Double, _ stop: () -> Bool) -> Void = MonotonicClock.pause) {
        self.device = device
        self.pause = pause
    }

    /// Opens the device (so a bad URI, a missing device or a refused buffer
    /// fail here, synchronously) and starts the capture thread.
    ///
    /// - Parameter handler: called on the capture thread for every event;
    ///   return false to stop capturing (e.g. after `Setting.count` samples). When
    ///   opening fails, the notices gathered on the way reach it on the
    ///   calling thread before the error is thrown.
    /// - Returns: what was opened.
    @discardableResult
    public func start(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) throws -> CaptureStatus {
        precondition(state.withLock { $0.finished == nil }, "a capture runs once")
        var notices: [Diagnostic] = []
        let opened: any CaptureDeviceSession
        do {
            opened = try device.open { notices.append($0) }
        } catch {
            // No thread yet: what was noticed on the way (a skipped device)
            // explains the failure, so it reaches the handler here.
            for notice in notices { _ = handler(.notice(notice)) }
            throw error
        }
        let finished = Latch()
        state.withLock { $0.finished = finished }
        adopt(opened)
        let status = opened.status, initialNotices = notices
        DetachedThread.start(name: device.threadName) { [self] in
            var go = true
            for notice in initialNotices where go { go = handler(.notice(notice)) }
            if go { go = handler(.opened(status)) }
            if go { loop(handler) }
            session?.close()
            adopt(nil)
            finished.open()
        }
        return status
    }

    /// Asks the capture to stop and wakes a blocked read; returns at once.
    public func stop() {
        state.withLock { state in
            state.stopping = true
            return state.cancel
        }?()
    }

    /// Suspends until the capture thread has finished (buffer disabled); at
    /// once when it never started.
    public func finished() async {
        await state.withLock { $0.finished }?.wait()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func adopt(_ opened: (any CaptureDeviceSession)?) {
        session = opened
        state.withLock { $0.cancel = opened?.cancel }
    }

    /// Runs sessions until stopped, reopening after faults.
    private func loop(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) {
        var backoff = device.configuration.retryInitialSeconds
        var lastAttemptMessage: Diagnostic? = nil
        var lastTimestamp: Int64? = nil
        func waitOut() {
            pause(backoff) { isStopping }
            backoff = min(backoff * 2, device.configuration.retryMaximumSeconds)
        }
        while !isStopping {
            if session == nil {
                do {
                    var notices: [Diagnostic] = []
                    let reopened = try device.reopen { notices.append($0) }
                    adopt(reopened)
                    backoff = device.configuration.retryInitialSeconds
                    lastAttemptMessage = nil
                    for notice in notices where !handler(.notice(notice)) { return }
                    let status = reopened.status
                    if !handler(.notice(device.resumedNotice(status))) || !handler(.opened(status)) { return }
                } catch {
                    let message = Diagnostic.notice("still cannot open \(device.noun): \(error)")
                    if message != lastAttemptMessage, !handler(.notice(message)) { return }
                    lastAttemptMessage = message
                    waitOut()
                    continue
                }
            }
            guard let current = session else { continue }
            var readsGyroscope = current.readsGyroscope
            do {
                var noticeStopped = false
                let keepGoing = try current.run(shouldStop: { isStopping || noticeStopped },
                                                notice: { if !handler(.notice($0)) { noticeStopped = true } }) { sample in
                    lastTimestamp = sample.reading.timestampNanoseconds
                    if readsGyroscope != current.readsGyroscope {
                        readsGyroscope = current.readsGyroscope
                        if !handler(.statusChanged(current.status)) { return false }
                    }
                    return handler(.sample(sample))
                } endBatch: {
                    if !handler(.batchEnd) { noticeStopped = true }
                }
                if !keepGoing || noticeStopped { return }
            } catch {
                current.close()
                adopt(nil)
                if isStopping { return }
                let time = device.faultTime(clock: current.status.clock, lastSampleNanoseconds: lastTimestamp)
                let message = "lost \(current.status.info.displayName): \(error); \(device.faultRemedy)"
                if !handler(.fault(message, timestampNanoseconds: time)) { return }
                waitOut()
            }
        }
    }
}
