import Dispatch
import Logging
import Synchronization

/// `Setting.onDemand`: keeps the accelerometer open only while at least one
/// socket client is connected, as iio-sensor-proxy does to save power.
///
/// The socket's event loop reports every change in the number of clients;
/// opening and closing the device (which can take a while: opening a
/// context, disabling a buffer) run on a serial queue of their own, so the
/// event loop never waits for the device. Each run looks at the newest
/// count, so a burst of joins and leaves settles to the right state.
public final class ListenOnDemand: Sendable {
    /// What to call to open and close the device.
    public struct Device: Sendable {
        public var open: @Sendable () throws -> Void
        public var close: @Sendable () -> Void

        public init(open: @escaping @Sendable () throws -> Void, close: @escaping @Sendable () -> Void) {
            self.open = open
            self.close = close
        }
    }

    private struct State {
        var device: Device?
        var isOpen = false
    }

    /// Runs a closure after a delay: the release grace's timer (tests
    /// inject one they fire themselves).
    public typealias Scheduler = @Sendable (_ delaySeconds: Double, _ body: @escaping @Sendable () -> Void) -> Void

    private let queue = DispatchQueue(label: "tiltd.on-demand")
    private let clients = Atomic<Int>(0)
    /// Bumped by every change of the count: a release timer that finds it
    /// changed was overtaken (a client came, and perhaps went again).
    private let changes = Atomic<Int>(0)
    private let state = Mutex(State())
    private let logger: Logger
    private let releaseGraceSeconds: Double
    private let schedule: Scheduler

    /// How long the device stays open after the last client left, by default:
    /// clients that come and go in quick succession (a claim and release
    /// loop, a reconnecting client) do not power the sensor up and down
    /// each time.
    public static let defaultReleaseGraceSeconds = 2.0

    /// - Parameters:
    ///   - logger: one-line notices (opened, released, failed).
    ///   - releaseGraceSeconds: how long the last client's departure waits
    ///     before the device is closed (0: at once).
    ///   - schedule: runs the release timer (by default on the device queue).
    public init(logger: Logger = TiltdLog.logger, releaseGraceSeconds: Double = defaultReleaseGraceSeconds,
                schedule: Scheduler? = nil) {
        self.logger = logger
        self.releaseGraceSeconds = releaseGraceSeconds
        let queue = self.queue
        self.schedule = schedule ?? { delay, body in
            queue.asyncAfter(deadline: .now() + delay) { body() }
        }
    }

    /// Connects the device once it exists (the socket server, which reports
    /// clients, has to be created before the run that owns the device).
    public func attach(_ device: Device) {
        state.withLock { $0.device = device }
        queue.async { self.settle(change: self.changes.load(ordering: .sequentiallyConsistent)) }
    }

    /// Called by the socket server with the new number of clients.
    public func clientCountChanged(_ count: Int) {
        clients.store(count, ordering: .sequentiallyConsistent)
        let change = changes.add(1, ordering: .sequentiallyConsistent).newValue
        queue.async { self.settle(change: change) }
    }

    /// Closes the device if it is open (at the end of the run), without
    /// waiting out the release grace.
    public func release() {
        clients.store(0, ordering: .sequentiallyConsistent)
        changes.add(1, ordering: .sequentiallyConsistent)
        queue.sync { self.settle(change: nil) }
    }

    /// Waits until every change reported so far has been acted on (tests).
    package func waitUntilSettled() {
        queue.sync {}
    }

    /// Opens or closes the device as the newest count wants. A close waits
    /// out the release grace first: `change` is the count change that asked
    /// for it, and the timer closes only if no change came since (nil: no
    /// grace, the run is ending).
    private func settle(change: Int?, graceOver: Bool = false) {
        let wanted = clients.load(ordering: .sequentiallyConsistent) > 0
        let (device, isOpen) = state.withLock { ($0.device, $0.isOpen) }
        guard let device, wanted != isOpen else { return }
        if !wanted, let change, !graceOver, releaseGraceSeconds > 0 {
            schedule(releaseGraceSeconds) { [self] in
                queue.async {
                    guard self.changes.load(ordering: .sequentiallyConsistent) == change else { return }
                    self.settle(change: change, graceOver: true)
                }
            }
            return
        }
        if wanted {
            do {
                try device.open()
                state.withLock { $0.isOpen = true }
                logger.notice("a client connected: device opened")
            } catch {
                logger.error("a client connected but the device cannot be opened: \(error); the next client will try again")
            }
        } else {
            device.close()
            state.withLock { $0.isOpen = false }
            logger.notice("last client left: device released")
        }
    }
}
