import Dispatch
import Motion
import Synchronization

/// Captures an evdev motion sensor on its own thread until stopped. A pad
/// that vanishes (unplugged, Bluetooth sleep) is reported as a fault, waited
/// for with backoff and picked up again, as `DeviceCapture` does for IIO.
///
/// Each `PadCapture` runs once.
public final class PadCapture: MotionCapture, @unchecked Sendable {
    // Safe to share: `configuration` is immutable, `state` is a Mutex, and
    // `pad` (with its libevdev handle) is touched only by the capture thread
    // once `start` has handed it over.
    public let configuration: CaptureConfiguration
    private let state = Mutex(State())
    private let finishedSignal = DispatchSemaphore(value: 0)
    private var pad: MotionPad?
    /// The name of the pad first opened: a pad that reconnects usually comes
    /// back on a new /dev/input/eventN, so it is found again by name.
    private var padName: String?

    private struct State {
        var stopping = false
        var started = false
        var finished = false
    }

    /// How long one wait for events lasts, so a stop is seen promptly.
    private static let pollMilliseconds: Int32 = 100

    /// - Parameter configuration: `device` (node or name) and `mountMatrix`
    ///   select and orient the pad; the retry times apply; the IIO fields are unused.
    public init(configuration: CaptureConfiguration) {
        self.configuration = configuration
    }

    /// Opens the pad and starts the capture thread.
    ///
    /// - Throws: `MotionPadSelectionError`, `EvdevError`, `MountMatrixError`.
    @discardableResult
    public func start(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) throws -> CaptureStatus {
        precondition(!state.withLock { $0.started }, "a PadCapture runs once")
        var notices: [String] = []
        let opened: MotionPad
        do {
            opened = try openPad { notices.append($0) }
        } catch {
            for notice in notices { _ = handler(.notice(notice)) }
            throw error
        }
        pad = opened
        padName = opened.info.name
        state.withLock { $0.started = true }
        let status = Self.status(opened)
        let initialNotices = notices
        DetachedThread.start(name: "tiltd pad") { [self] in
            var go = true
            for notice in initialNotices where go { go = handler(.notice(notice)) }
            if go { go = handler(.opened(status)) }
            if go { loop(handler) }
            pad = nil
            finish()
        }
        return status
    }

    public func stop() {
        state.withLock { $0.stopping = true }
    }

    public func waitUntilFinished() {
        guard state.withLock({ $0.started && !$0.finished }) else { return }
        finishedSignal.wait()
        finishedSignal.signal()
    }

    /// What a capture of `pad` reports as opened.
    static func status(_ pad: MotionPad) -> CaptureStatus {
        CaptureStatus(info: pad.info.accelerometerInfo, mode: .buffer, rateHertz: pad.info.family.nominalRateHertz,
                      clock: "monotonic", pad: pad.info)
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func finish() {
        state.withLock { $0.finished = true }
        finishedSignal.signal()
    }

    /// Opens the configured pad again after a loss: by `Setting.device` first, else
    /// by the name it had (a new node after reconnecting).
    private func reopenPad(notice: (String) -> Void) throws -> MotionPad {
        do {
            return try openPad(notice: notice)
        } catch let error as MotionPadSelectionError {
            guard let padName, padName != configuration.device else { throw error }
            return try openPad(query: padName, notice: notice)
        }
    }

    /// Chooses the configured pad among those udev lists and opens it
    /// (only it: the others are never opened).
    private func openPad(query: String? = nil, notice: (String) -> Void) throws -> MotionPad {
        let candidates = MotionPadDiscovery.candidates()
        let index = try MotionPadSelector(query: query ?? configuration.device).choose(from: candidates)
        return try MotionPadDiscovery(matrixOverride: configuration.mountMatrix).open(candidates[index])
    }

    /// Reads until stopped, reopening after faults.
    private func loop(_ handler: @escaping @Sendable (CaptureEvent) -> Bool) {
        var backoff = configuration.retryInitialSeconds
        var lastAttemptMessage: String? = nil
        var lastTimestamp: Int64? = nil
        while !isStopping {
            if pad == nil {
                do {
                    var notices: [String] = []
                    let reopened = try reopenPad { notices.append($0) }
                    pad = reopened
                    backoff = configuration.retryInitialSeconds
                    lastAttemptMessage = nil
                    for notice in notices where !handler(.notice(notice)) { return }
                    if !handler(.notice("\(reopened.info.displayName) is back: resuming"))
                        || !handler(.opened(Self.status(reopened))) { return }
                } catch {
                    let message = "still cannot open the motion sensor: \(error)"
                    if message != lastAttemptMessage, !handler(.notice(message)) { return }
                    lastAttemptMessage = message
                    MonotonicClock.pause(seconds: backoff) { isStopping }
                    backoff = min(backoff * 2, configuration.retryMaximumSeconds)
                    continue
                }
            }
            guard let current = pad else { continue }
            do {
                var notices: [String] = []
                let keepGoing = try current.read(timeoutMilliseconds: Self.pollMilliseconds,
                                                 notice: { notices.append($0) }) { sample in
                    lastTimestamp = sample.reading.timestampNanoseconds
                    return handler(.sample(CapturedSample(motion: sample)))
                }
                for notice in notices where !handler(.notice(notice)) { return }
                if !keepGoing { return }
            } catch {
                pad = nil
                if isStopping { return }
                // Samples are on CLOCK_MONOTONIC: "now" places the gap, after the last sample.
                let time = max(MonotonicClock.nanoseconds(), (lastTimestamp ?? 0) + 1)
                let message = "lost \(current.info.displayName): \(error); waiting for it to return"
                if !handler(.fault(message, timestampNanoseconds: time)) { return }
                MonotonicClock.pause(seconds: backoff) { isStopping }
                backoff = min(backoff * 2, configuration.retryMaximumSeconds)
            }
        }
    }
}
