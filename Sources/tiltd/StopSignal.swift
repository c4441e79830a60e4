import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM as a flag that a long loop checks between units of
/// work (a frame, a reading), so the command finishes what it is writing,
/// says that it stopped, and exits 0 instead of dying with a torn file.
final class StopSignal: @unchecked Sendable {
    private let received = Atomic<Int32>(0)
    // Touched only by init and deinit.
    private var sources: [any DispatchSourceSignal] = []

    /// Starts watching SIGINT and SIGTERM (their default action, ending the
    /// process, is turned off while this object lives).
    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.note(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// Keeps the first signal's number.
    private func note(_ number: Int32) {
        _ = received.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
    }

    /// The first signal that arrived, or nil.
    var signalNumber: Int32? {
        let number = received.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// True once SIGINT or SIGTERM has arrived.
    var isRequested: Bool { signalNumber != nil }

    /// "SIGINT" or "SIGTERM" for messages.
    var signalName: String { signalNumber == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Sleeps until `deadline` or until a signal arrives, whichever is first
    /// (in slices of at most 50 ms, so a long pause still stops promptly).
    ///
    /// - Returns: false when a signal arrived.
    func sleep(until deadline: ContinuousClock.Instant) async throws -> Bool {
        let clock = ContinuousClock()
        while !isRequested {
            let now = clock.now
            if now >= deadline { return true }
            try await clock.sleep(until: min(deadline, now.advanced(by: .milliseconds(50))), tolerance: nil)
        }
        return false
    }
}
