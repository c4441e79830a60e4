/// Live left and right levels of a PulseAudio source (PipeWire desktops
/// serve the same API through pipewire-pulse), as pavucontrol's meters
/// read them, with the LARSBar smoothing.
///
/// One stereo float record stream with `PA_STREAM_PEAK_DETECT` at
/// `updatesPerSecond` frames per second and a fragment of one frame: the
/// server's "peaks" resampler puts each channel's largest |sample| of every
/// 1/144 s into its own slot, so the rows move separately (the original
/// LARSBar demo drove both rows with one value; pavucontrol's meter is mono).
/// Each peak feeds a `LevelSmoother` per channel.
///
/// Once started, losing the server (or the source) is not fatal: the meter
/// reports `.lost`, retries with a backoff of 0.25 s doubling to 4 s, and
/// reports `.reconnected` when levels flow again.
///
/// `@unchecked Sendable`: mutable state is touched only with the mainloop
/// lock held (libpulse callbacks, or `connection.withLock`).
public final class LevelMeter: @unchecked Sendable {
    /// What the meter reports: levels and losses on libpulse's mainloop
    /// thread (do not block in it), `.reconnected` from the retrying task.
    public enum Event: Sendable, Equatable {
        /// New levels, about `updatesPerSecond` times a second.
        case levels(ChannelLevels)
        /// The server or source went away (libpulse's reason); retrying.
        case lost(server: String, reason: String)
        /// Levels flow again after a loss.
        case reconnected(server: String)
    }

    /// pavucontrol's meter rate: updates per second.
    public static let defaultUpdatesPerSecond = 144
    /// The longest wait between reconnection attempts.
    static let maximumRetrySeconds = 4.0

    private let connection: PulseConnection
    private let source: String?
    private let updatesPerSecond: Int
    private let onEvent: @Sendable (Event) -> Void
    private let started = ContinuousClock.now
    private var stream: OpaquePointer?
    private var streamCallbacks: [PulseCallback<Void>] = []
    private var pendingStream: CheckedContinuation<Result<Void, PulseError>, Never>?
    private var left = LevelSmoother(), right = LevelSmoother()
    private var isRecovering = false
    private var isStopped = false

    /// - Parameters:
    ///   - source: a PulseAudio source name; nil for the default output's
    ///     monitor (`@DEFAULT_MONITOR@`), i.e. what the machine is playing.
    ///   - server: a libpulse server string; nil for libpulse's default.
    ///   - updatesPerSecond: levels per second (peak windows of 1/rate s).
    ///   - onEvent: receives levels and connection changes.
    /// - Throws: `PulseError.mainloopUnavailable`.
    public init(source: String? = nil, server: String? = nil,
                updatesPerSecond: Int = LevelMeter.defaultUpdatesPerSecond,
                onEvent: @escaping @Sendable (Event) -> Void) throws(PulseError) {
        precondition(updatesPerSecond > 0, "updatesPerSecond must be positive")
        connection = try PulseConnection(server: server, clientName: "tiltd levels")
        self.source = source
        self.updatesPerSecond = updatesPerSecond
        self.onEvent = onEvent
        connection.onLost = { [weak self] reason in self?.lost(reason) }
    }

    deinit { stop() }

    /// The source being metered, as PulseAudio names it.
    public var sourceName: String { source ?? "@DEFAULT_MONITOR@" }

    /// The server the meter talks to, for messages.
    public var serverDescription: String { connection.serverDescription }

    /// Connects and starts the stream; levels then arrive through `onEvent`.
    ///
    /// - Throws: `PulseError.noServer` (nothing to connect to) or
    ///   `.noSource` (the server refused the stream, e.g. no such source).
    public func start() async throws(PulseError) {
        try await connection.connect()
        try await openStream()
    }

    /// Stops the stream and disconnects; no event follows. Not from `onEvent`.
    /// Call it when done: a meter that is retrying after a loss keeps itself
    /// alive (and retrying) until stopped.
    public func stop() {
        connection.withLock {
            isStopped = true
            closeStream()
        }
        connection.close()
    }

    /// Creates and connects the record stream, waiting until it is ready.
    private func openStream() async throws(PulseError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, PulseError>, Never>) in
            connection.withLock {
                closeStream()
                guard !isStopped, let context = connection.context,
                      let stream = LibPulse.makePeakStream(context, name: "tiltd peak meter",
                                                           rateHertz: updatesPerSecond) else {
                    return continuation.resume(returning: .failure(refusal("no connection")))
                }
                self.stream = stream
                let stateCallback = PulseCallback<Void> { [weak self] in self?.streamStateChanged() }
                let readCallback = PulseCallback<Void> { [weak self] in self?.readPeaks() }
                streamCallbacks = [stateCallback, readCallback]
                LibPulse.onStateChange(stream: stream, stateCallback)
                LibPulse.onReadable(stream: stream, readCallback)
                pendingStream = continuation
                let isMonitor = source.map { $0.hasSuffix(".monitor") } ?? true
                if LibPulse.connectRecord(stream: stream, source: source, isMonitor: isMonitor,
                                          fragmentBytes: 2 * MemoryLayout<Float>.size) < 0,
                   let pending = pendingStream {
                    // Resumed here only if the state callback has not already done it.
                    pendingStream = nil
                    pending.resume(returning: .failure(refusal(LibPulse.lastError(context))))
                }
            }
        }
        try result.get()
    }

    private func refusal(_ reason: String) -> PulseError {
        .noSource(source: sourceName, server: connection.serverDescription, reason: reason)
    }

    /// Called with the lock held.
    private func closeStream() {
        if let stream { LibPulse.release(stream: stream) }
        stream = nil
        streamCallbacks = []
    }

    /// On the mainloop thread.
    private func streamStateChanged() {
        guard let stream else { return }
        switch LibPulse.state(stream: stream) {
        case .connecting:
            break
        case .ready:
            pendingStream?.resume(returning: .success(()))
            pendingStream = nil
        case .failed, .terminated:
            let reason = connection.context.map(LibPulse.lastError) ?? "stream ended"
            if let pending = pendingStream {
                pendingStream = nil
                pending.resume(returning: .failure(refusal(reason)))
            } else {
                lost("the stream from \(sourceName) ended: \(reason)")
            }
        }
    }

    /// On the mainloop thread: every pending frame is one update per channel.
    private func readPeaks() {
        guard let stream else { return }
        let now = ContinuousClock.now
        let elapsed = started.duration(to: now)
        let nowSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let ok = LibPulse.readFloats(stream: stream) { floats in
            let frames = floats.count / 2
            for frame in 0..<frames {
                // Frames queued together are 1/rate s apart, the last one "now".
                let seconds = nowSeconds - Double(frames - 1 - frame) / Double(updatesPerSecond)
                let levels = ChannelLevels(seconds: max(seconds, 0),
                                           left: left.update(peak: Double(abs(floats[2 * frame]))),
                                           right: right.update(peak: Double(abs(floats[2 * frame + 1]))))
                onEvent(.levels(levels))
            }
        }
        if !ok { lost("reading the stream from \(sourceName) failed") }
    }

    /// On the mainloop thread: reports a loss once and starts retrying.
    private func lost(_ reason: String) {
        guard !isRecovering, !isStopped else { return }
        isRecovering = true
        onEvent(.lost(server: connection.serverDescription, reason: reason))
        Task { [weak self] in await self?.reconnect() }
    }

    /// Retries with a doubling backoff until levels flow again or `stop()`.
    private func reconnect() async {
        var delaySeconds = 0.25
        while true {
            try? await Task.sleep(for: .seconds(delaySeconds))
            if connection.withLock({ isStopped }) { return }
            do {
                try await connection.connect()
                try await openStream()
                let server = connection.serverDescription
                let report = connection.withLock { () -> Bool in
                    isRecovering = false
                    return !isStopped
                }
                if report { onEvent(.reconnected(server: server)) }
                return
            } catch {
                delaySeconds = min(delaySeconds * 2, LevelMeter.maximumRetrySeconds)
            }
        }
    }
}
