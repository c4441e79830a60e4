import Dispatch
import Logging
import Synchronization

/// `--on-demand`: keeps the accelerometer open only while at least one
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

    private let queue = DispatchQueue(label: "tiltd.on-demand")
    private let clients = Atomic<Int>(0)
    private let state = Mutex(State())
    private let logger: Logger

    /// - Parameter logger: one-line notices (opened, released, failed).
    public init(logger: Logger = TiltdLog.logger) {
        self.logger = logger
    }

    /// Connects the device once it exists (the socket server, which reports
    /// clients, has to be created before the run that owns the device).
    public func attach(_ device: Device) {
        state.withLock { $0.device = device }
        queue.async { self.settle() }
    }

    /// Called by the socket server with the new number of clients.
    public func clientCountChanged(_ count: Int) {
        clients.store(count, ordering: .sequentiallyConsistent)
        queue.async { self.settle() }
    }

    /// Closes the device if it is open (at the end of the run).
    public func release() {
        clients.store(0, ordering: .sequentiallyConsistent)
        queue.sync { self.settle() }
    }

    private func settle() {
        let wanted = clients.load(ordering: .sequentiallyConsistent) > 0
        let (device, isOpen) = state.withLock { ($0.device, $0.isOpen) }
        guard let device, wanted != isOpen else { return }
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
