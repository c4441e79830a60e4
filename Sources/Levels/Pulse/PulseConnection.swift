/// One libpulse threaded mainloop and its current context: connects,
/// reconnects, runs requests; `close` disconnects and stops the thread, and
/// deinit frees the mainloop (after `close`, the lock still works).
///
/// `@unchecked Sendable`: every mutable field is touched only with the
/// mainloop lock held (libpulse callbacks hold it; other threads take it in
/// `withLock`), which serialises all access.
final class PulseConnection: @unchecked Sendable {
    /// Where the connection goes, for messages.
    let serverDescription: String
    /// Called on the mainloop thread when a ready connection fails or the
    /// server goes away, with libpulse's reason.
    var onLost: ((String) -> Void)?

    private let server: String?
    private let clientName: String
    private let mainloop: OpaquePointer
    private(set) var context: OpaquePointer?
    private var stateCallback: PulseCallback<Void>?
    private var pendingConnect: CheckedContinuation<Result<Void, PulseError>, Never>?
    private var isReady = false
    private var isClosed = false

    /// Creates and starts the mainloop thread; nothing connects yet.
    ///
    /// - Parameters:
    ///   - server: a libpulse server string ("unix:/run/user/1000/pulse/native"),
    ///     nil for libpulse's default.
    ///   - clientName: the name the server shows for this client.
    /// - Throws: `PulseError.mainloopUnavailable`.
    init(server: String?, clientName: String) throws(PulseError) {
        guard let mainloop = LibPulse.makeMainloop() else { throw .mainloopUnavailable }
        guard LibPulse.start(mainloop) >= 0 else {
            LibPulse.free(mainloop)
            throw .mainloopUnavailable
        }
        self.mainloop = mainloop
        self.server = server
        self.clientName = clientName
        serverDescription = PulseServerAddress.describe(server)
    }

    deinit {
        close()
        LibPulse.free(mainloop)
    }

    /// Runs `body` with the mainloop lock held (from any thread but the mainloop's).
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        LibPulse.lock(mainloop)
        defer { LibPulse.unlock(mainloop) }
        return try body()
    }

    /// Replaces any current context with a new one and waits until it is
    /// ready.
    ///
    /// - Throws: `PulseError.noServer` when no server answers.
    func connect() async throws(PulseError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, PulseError>, Never>) in
            withLock { startConnecting(continuation) }
        }
        try result.get()
    }

    /// Called with the lock held.
    private func startConnecting(_ continuation: CheckedContinuation<Result<Void, PulseError>, Never>) {
        dropContext()
        guard !isClosed, let context = LibPulse.makeContext(mainloop, clientName: clientName) else {
            continuation.resume(returning: .failure(.noServer(server: serverDescription, reason: "connection closed")))
            return
        }
        self.context = context
        let callback = PulseCallback<Void> { [weak self] in self?.contextStateChanged() }
        stateCallback = callback
        LibPulse.onStateChange(context, callback)
        pendingConnect = continuation
        // A refused connect may already have reported FAILED to the state
        // callback (which then resumed the continuation); resume only once.
        if LibPulse.connect(context, server: server) < 0, let pending = pendingConnect {
            pendingConnect = nil
            let reason = LibPulse.lastError(context)
            dropContext()
            pending.resume(returning: .failure(.noServer(server: serverDescription, reason: reason)))
        }
    }

    /// On the mainloop thread: finishes a connect, or reports a loss.
    private func contextStateChanged() {
        guard let context else { return }
        switch LibPulse.state(context) {
        case .connecting:
            break
        case .ready:
            isReady = true
            pendingConnect?.resume(returning: .success(()))
            pendingConnect = nil
        case .failed, .terminated:
            let reason = LibPulse.lastError(context)
            if let pending = pendingConnect {
                pendingConnect = nil
                pending.resume(returning: .failure(.noServer(server: serverDescription, reason: reason)))
            } else if isReady {
                isReady = false
                onLost?(reason)
            }
        }
    }

    /// Starts a libpulse request on the ready context and waits for its
    /// completion value; nil when there is no ready context.
    func request<Value: Sendable>(
        _ start: @escaping (OpaquePointer, @escaping (Value) -> Void) -> Void
    ) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            withLock {
                guard isReady, let context else { return continuation.resume(returning: nil) }
                start(context) { continuation.resume(returning: $0) }
            }
        }
    }

    /// Called with the lock held.
    private func dropContext() {
        guard let context else { return }
        self.context = nil
        isReady = false
        LibPulse.release(context)
        stateCallback = nil
    }

    /// Disconnects and stops the mainloop thread; later calls do nothing. Never
    /// call it from a libpulse callback (stopping joins the mainloop thread).
    func close() {
        precondition(!LibPulse.isMainloopThread(mainloop), "PulseConnection.close() from a libpulse callback")
        let first = withLock { () -> Bool in
            guard !isClosed else { return false }
            isClosed = true
            pendingConnect?.resume(returning: .failure(.noServer(server: serverDescription, reason: "connection closed")))
            pendingConnect = nil
            dropContext()
            return true
        }
        if first { LibPulse.stop(mainloop) }
    }
}
