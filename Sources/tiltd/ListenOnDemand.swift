import Dispatch
import Synchronization

/// `--on-demand`: keeps the accelerometer open only while at least one
/// socket client is connected, as iio-sensor-proxy does to save power.
///
/// The socket's I/O thread reports every change in the number of clients;
/// opening and closing the device (which can take a while: opening a
/// context, disabling a buffer) run on a serial queue of their own, so the
/// I/O thread never waits for the device. Each run looks at the newest
/// count, so a burst of joins and leaves settles to the right state.
final class ListenOnDemand: Sendable {
    /// What to call to open and close the device.
    struct Device: Sendable {
        var open: @Sendable () throws -> Void
        var close: @Sendable () -> Void
    }

    private struct State {
        var device: Device?
        var isOpen = false
    }

    private let queue = DispatchQueue(label: "tiltd.on-demand")
    private let clients = Atomic<Int>(0)
    private let state = Mutex(State())
    private let report: @Sendable (String) -> Void

    /// - Parameter report: prints a one-line notice (opened, released, failed).
    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    /// Connects the device once it exists (the socket server, which reports
    /// clients, has to be created before the run that owns the device).
    func attach(_ device: Device) {
        state.withLock { $0.device = device }
        queue.async { self.settle() }
    }

    /// Called by the socket server with the new number of clients.
    func clientCountChanged(_ count: Int) {
        clients.store(count, ordering: .sequentiallyConsistent)
        queue.async { self.settle() }
    }

    /// Closes the device if it is open (at the end of the run).
    func release() {
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
                report("tiltd: a client connected: device opened")
            } catch {
                report("tiltd: error: a client connected but the device cannot be opened: \(error); "
                       + "the next client will try again")
            }
        } else {
            device.close()
            state.withLock { $0.isOpen = false }
            report("tiltd: last client left: device released")
        }
    }
}
