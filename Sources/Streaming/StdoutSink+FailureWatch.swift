import Logging
import ServiceLifecycle
import Synchronization

extension StdoutSink {
    /// A service that ends a run when standard output fails: it logs the
    /// failure once and throws it, so the lifecycle stops the other services
    /// (removing the socket file) and the command exits 1; on a shutdown it
    /// returns.
    public final class FailureWatch: Service, Sendable {
        private let failures = AsyncStream<ReportedFailure>.makeStream()
        private let reported = Atomic(false)
        private let logger: Logger

        public init(logger: Logger = TiltdLog.logger) { self.logger = logger }

        /// Logs `failure` and ends the watch with it (any thread); only the first counts.
        public func report(_ failure: ReportedFailure) {
            guard reported.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
            logger.error("\(failure.description)")
            failures.continuation.yield(failure)
        }

        public func run() async throws {
            let stream = failures.stream
            if let failure = await cancelWhenGracefulShutdown({ await stream.first { _ in true } }) { throw failure }
        }
    }
}
