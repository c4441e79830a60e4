import Motion
import Wording

/// `tiltd monitor`: watches `net.tiltd.Tilt`, claims it whenever it is on
/// the bus (so it keeps working across restarts of the service), and prints
/// each change as a line, like iio-sensor-proxy's `monitor-sensor`.
public final class TiltMonitor: Sendable {
    private let address: BusAddress
    private let format: TiltMonitorFormat
    private let write: @Sendable (String) -> Void
    private let report: @Sendable (Diagnostic) -> Void
    /// Woken by `stop()` (any thread); the run loop polls it.
    private let stopping: WakePipe

    /// - Parameters:
    ///   - address: the bus to watch.
    ///   - format: text or JSON lines.
    ///   - write: prints one line (the newline is added by the callee).
    ///   - report: prints a one-line notice on stderr (waiting, claim refused).
    public init(bus address: BusAddress, format: TiltMonitorFormat, write: @escaping @Sendable (String) -> Void,
                report: @escaping @Sendable (Diagnostic) -> Void) throws {
        self.address = address
        self.format = format
        self.write = write
        self.report = report
        stopping = try WakePipe(bus: address.description)
    }

    /// Makes `run()` return (any thread, e.g. on SIGINT).
    public func stop() {
        stopping.wake()
    }

    /// Watches until `stop()`.
    ///
    /// - Throws: `TiltBusError` when the bus cannot be reached or goes away.
    public func run() throws {
        let bus = try SDBus(address)
        let watch = WatchState()
        let format = format
        let write = write
        try bus.watchNameOwners { name, _, newOwner in
            guard name == TiltProperties.busName else { return }
            if newOwner.isEmpty {
                if watch.owner != nil { write(format.vanished(bus: self.address.description)) }
                watch.owner = nil
                watch.values = [:]
            } else {
                watch.pendingOwner = newOwner
            }
        }
        try bus.watchPropertiesChanged(path: TiltProperties.objectPath) { interface, changed in
            guard interface == TiltProperties.interface else { return }
            guard watch.owner != nil else { return }
            watch.values.merge(changed) { _, new in new }
            write(format.state(watch.values))
        }
        // The service may be on the bus already: claim it now (a failure
        // only means it is not there yet; NameOwnerChanged brings it).
        if !claim(on: bus, owner: nil, watch: watch) {
            report(.notice("waiting for \(TiltProperties.busName) on \(address)"))
        }
        while true {
            try bus.processAvailable()
            if let owner = watch.pendingOwner {
                watch.pendingOwner = nil
                _ = claim(on: bus, owner: owner, watch: watch)
                continue
            }
            if try bus.wait(orReadable: stopping.reader) { return }
        }
    }

    /// Claims the service and prints its values; false if it is not there.
    private func claim(on bus: SDBus, owner: String?, watch: WatchState) -> Bool {
        let name = TiltProperties.busName
        do {
            try bus.call(destination: name, path: TiltProperties.objectPath, interface: TiltProperties.interface,
                         member: "Claim")
            let values = try bus.call(destination: name, path: TiltProperties.objectPath,
                                      interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                      argument: TiltProperties.interface)
            let unique = owner ?? bus.owner(of: name) ?? name
            watch.owner = unique
            watch.values = values
            write(format.appeared(owner: unique, bus: address.description, values))
            write(format.state(values))
            return true
        } catch {
            if owner != nil { report(.notice("\(error)")) }
            return false
        }
    }

    /// What the monitor knows of the service; touched by the callbacks and
    /// the run loop, all on the calling thread of `run()`.
    private final class WatchState {
        var owner: String?
        var pendingOwner: String?
        var values: [String: BusValue] = [:]
    }
}
