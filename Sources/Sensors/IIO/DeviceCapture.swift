import Dispatch
import Motion
import Synchronization

/// Captures an accelerometer on its own thread until stopped, surviving
/// faults: a device that errors or vanishes is reported, reopened with
/// backoff, and picked up again when it returns.
///
/// Events reach the handler on the capture thread, in order. A capture can be
/// started and stopped while the process runs (e.g. open on the first client,
/// close on the last); each `DeviceCapture` runs once.
public final class DeviceCapture: @unchecked Sendable {
    // Safe to share: `configuration` is immutable; `state` is a Mutex; the
    // session (and every libiio pointer in it) is touched only by the capture
    // thread, except `BufferedReader.cancel()`, which is thread-safe.
    public let configuration: CaptureConfiguration
    private let state = Mutex(State())
    private let finishedSignal = DispatchSemaphore(value: 0)
    private var session: CaptureSession?

    private struct State {
        var stopping = false
        var started = false
        var finished = false
        var buffered: BufferedReader?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    public init(configuration: CaptureConfiguration) {
        self.configuration = configuration
    }

    /// Opens the device (so a bad URI, a missing device or a refused buffer
    /// in `Setting.mode` `buffer` fail here, synchronously) and starts the capture thread.
    ///
    /// - Parameter handler: called on the capture thread for every event;
    ///   return false to stop capturing (e.g. after `Setting.count` samples). When
    ///   opening fails, the notices gathered on the way reach it on the
    ///   calling thread before the error is thrown.
    /// - Returns: what was opened.
    /// - Throws: `IIOError`, `AccelerometerSelectionError`, `DeviceAttributeError`.
    @discardableResult
    public func start(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) throws -> CaptureStatus {
        precondition(!state.withLock { $0.started }, "a DeviceCapture runs once")
        var notices: [String] = []
        let opened: CaptureSession
        do {
            opened = try CaptureSession(configuration: configuration) { notices.append($0) }
        } catch {
            // No thread yet: what was noticed on the way (a skipped device)
            // explains the failure, so it reaches the handler here.
            for notice in notices { _ = handler(.notice(notice)) }
            throw error
        }
        session = opened
        state.withLock {
            $0.started = true
            $0.buffered = opened.buffered
        }
        let initialNotices = notices
        let status = opened.status
        DetachedThread.start(name: "tiltd capture") { [self] in
            var go = true
            for notice in initialNotices where go { go = handler(.notice(notice)) }
            if go { go = handler(.opened(status)) }
            if go { loop(handler) }
            session?.close()
            session = nil
            finish()
        }
        return status
    }

    /// Asks the capture to stop and wakes a blocked buffer read; returns at
    /// once. The buffer is disabled on the capture thread before it finishes.
    public func stop() {
        let buffered = state.withLock { state -> BufferedReader? in
            state.stopping = true
            return state.buffered
        }
        buffered?.cancel()
    }

    /// Blocks until the capture thread has finished (buffer disabled).
    public func waitUntilFinished() {
        guard state.withLock({ $0.started && !$0.finished }) else { return }
        finishedSignal.wait()
        finishedSignal.signal()
    }

    /// Suspends until the capture thread has finished (buffer disabled).
    public func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished || !state.started { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished = true
            state.buffered = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        finishedSignal.signal()
        for waiter in waiters { waiter.resume() }
    }

    /// Runs sessions until stopped, reopening after faults.
    private func loop(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) {
        var backoff = configuration.retryInitialSeconds
        var lastAttemptMessage: String? = nil
        var lastClock = "monotonic"
        var lastTimestamp: Int64? = nil
        while !isStopping {
            if session == nil {
                do {
                    var notices: [String] = []
                    let reopened = try CaptureSession(configuration: configuration) { notices.append($0) }
                    session = reopened
                    state.withLock { $0.buffered = reopened.buffered }
                    backoff = configuration.retryInitialSeconds
                    lastAttemptMessage = nil
                    for notice in notices where !handler(.notice(notice)) { return }
                    let status = reopened.status
                    let resumed = "\(status.info.displayName) is back: resuming (\(status.mode.rawValue), "
                        + "\(CaptureRate.attributeText(status.rateHertz)) Hz)"
                    if !handler(.notice(resumed)) || !handler(.opened(status)) { return }
                } catch {
                    let message = "still cannot open the device: \(error)"
                    if message != lastAttemptMessage, !handler(.notice(message)) { return }
                    lastAttemptMessage = message
                    MonotonicClock.pause(seconds: backoff) { isStopping }
                    backoff = min(backoff * 2, configuration.retryMaximumSeconds)
                    continue
                }
            }
            guard let current = session else { continue }
            lastClock = current.status.clock
            var readsGyroscope = current.status.readsGyroscope
            do {
                var noticeStopped = false
                let keepGoing = try current.run(shouldStop: { isStopping || noticeStopped },
                                                notice: { if !handler(.notice($0)) { noticeStopped = true } }) { sample in
                    lastTimestamp = sample.reading.timestampNanoseconds
                    if readsGyroscope != current.status.readsGyroscope {
                        readsGyroscope = current.status.readsGyroscope
                        if !handler(.statusChanged(current.status)) { return false }
                    }
                    return handler(.sample(sample))
                }
                if !keepGoing { return }
            } catch {
                current.close()
                state.withLock { $0.buffered = nil }
                session = nil
                if isStopping { return }
                // On the monotonic clock "now" places the gap; on another clock
                // the only known point is just after the last sample.
                let time = lastClock == "monotonic" ? MonotonicClock.nanoseconds() : (lastTimestamp ?? 0) + 1
                let message = "lost \(current.status.info.displayName): \(error); retrying with backoff"
                if !handler(.fault(message, timestampNanoseconds: time)) { return }
                MonotonicClock.pause(seconds: backoff) { isStopping }
                backoff = min(backoff * 2, configuration.retryMaximumSeconds)
            }
        }
    }
}
