import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM as an async event, so `tiltd serve` can stop its
/// server and streams and exit 0 instead of dying mid-response.
enum ServeSignals {
    /// Suspends until SIGINT or SIGTERM arrives.
    ///
    /// - Returns: the signal's number.
    static func termination() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let queue = DispatchQueue(label: "tiltd.serve.signals")
            let once = Once()
            var sources: [DispatchSourceSignal] = []
            for number in [SIGINT, SIGTERM] {
                // The dispatch source sees the signal only once its default
                // action (ending the process) is off.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    if once.claim() { continuation.resume(returning: number) }
                }
                source.resume()
                sources.append(source)
            }
            // Keep the sources alive for the life of the process.
            ServeSignals.retained.append(contentsOf: sources)
        }
    }

    nonisolated(unsafe) private static var retained: [DispatchSourceSignal] = []

    /// Lets exactly one of the signal handlers resume the continuation.
    private final class Once: Sendable {
        private let done = Atomic<Bool>(false)
        func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
    }
}
