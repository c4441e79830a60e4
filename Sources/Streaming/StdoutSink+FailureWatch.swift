import Logging
import ServiceLifecycle
import Synchronization

extension StdoutSink {
    /// A service that ends a run when standard output fails: it logs the
    /// failure once and throws it, so the lifecycle stops the other services
    /// (removing the socket file) and the command exits 1; on a shutdown it
    /// returns.
    public final class FailureWatch: Service, Sendable {
        private struct State {
            var ended = false
            var failure: ReportedFailure?
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())
        private let logger: Logger

        public init(logger: Logger = TiltdLog.logger) { self.logger = logger }

        /// Logs `failure` and ends the watch with it (any thread); only the
        /// first call counts.
        public func report(_ failure: ReportedFailure) {
            if end(failure) { logger.error("\(failure.description)") }
        }

        /// Ends the watch; true for the first end.
        private func end(_ failure: ReportedFailure?) -> Bool {
            let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !state.ended else { return (false, nil) }
                state.ended = true
                state.failure = failure
                defer { state.waiter = nil }
                return (true, state.waiter)
            }
            waiter?.resume()
            return first
        }

        public func run() async throws {
            await withGracefulShutdownHandler {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ended = state.withLock { state -> Bool in
                            if !state.ended { state.waiter = continuation }
                            return state.ended
                        }
                        if ended { continuation.resume() }
                    }
                } onCancel: { _ = self.end(nil) }
            } onGracefulShutdown: { _ = self.end(nil) }
            if let failure = state.withLock({ $0.failure }) { throw failure }
        }
    }
}
