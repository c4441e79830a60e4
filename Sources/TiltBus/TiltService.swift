import Dispatch
import Glibc
import Knob
import Motion
import Sensors
import Synchronization

/// The D-Bus service `net.tiltd.Tilt`: exports `/net/tiltd/Tilt` with
/// interface `net.tiltd.Tilt1` (docs/dbus.md) and sends PropertiesChanged
/// to the clients that hold a claim.
///
/// The bus is driven by one thread of its own (sd-bus is not thread-safe),
/// started by `init` and ended by `stop()`. Other threads hand it states
/// through `emit(_:)`, which only stores the newest state and wakes the
/// thread through a pipe: a burst of states between two wake-ups goes
/// out as one signal, so signals never come faster than states pass the
/// gate, and a slow bus never holds up the capture thread.
public final class TiltService: @unchecked Sendable {
    // Safe to share: `shared` is a Mutex, `wakeDescriptor` is only written
    // to; `bus`, `claims` and `published` are touched only on the bus thread
    // (after `init` hands them over, before the thread starts).
    private struct Shared {
        var properties: TiltProperties
        var pending = false
        var stopping = false
    }

    private let shared: Mutex<Shared>
    /// The self-pipe that wakes the bus thread: written by any thread, read
    /// (drained) only on the bus thread.
    private let wakeDescriptor: Int32
    private let wakeReader: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let onClaimCountChanged: @Sendable (Int) -> Void
    private let report: @Sendable (Diagnostic) -> Void
    private var bus: SDBus?
    private var claims: ClaimSet
    private var published: TiltProperties
    private var sendFailed = false

    /// Connects, exports the object, takes the name and starts the bus thread.
    ///
    /// - Parameters:
    ///   - address: the bus to serve on.
    ///   - properties: the initial values (device, HasAccelerometer, …).
    ///   - maximumClaims: how many clients may hold a claim at once.
    ///   - maximumClaimsPerUser: how many of them may be one user's.
    ///   - onClaimCountChanged: called on the bus thread with the new number
    ///     of claims whenever it changes (0 → 1: open the device; 1 → 0:
    ///     close it); must not block.
    ///   - report: prints a one-line notice (a failure of the bus).
    /// - Throws: `TiltBusError` (no bus, name owned by another process, …).
    public init(bus address: BusAddress, properties: TiltProperties, maximumClaims: Int = 64,
                maximumClaimsPerUser: Int = 8,
                onClaimCountChanged: @escaping @Sendable (Int) -> Void,
                report: @escaping @Sendable (Diagnostic) -> Void) throws {
        shared = Mutex(Shared(properties: properties))
        published = properties
        claims = ClaimSet(maximumCount: maximumClaims, maximumPerUser: maximumClaimsPerUser)
        self.onClaimCountChanged = onClaimCountChanged
        self.report = report
        let connection = try SDBus(address)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw TiltBusError.busFailed(bus: address.description, operation: "pipe",
                                         reason: String(cString: strerror(errno)))
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeDescriptor = ends[1]
        wakeReader = ends[0]
        do {
            try connection.exportObject(path: TiltProperties.objectPath, interface: TiltProperties.interface,
                                        handler: self)
            try connection.watchNameOwners { [unowned self] name, _, newOwner in
                if newOwner.isEmpty, claims.release(name) { onClaimCountChanged(claims.count) }
            }
            try connection.requestName(TiltProperties.busName)
        } catch {
            close(wakeDescriptor)
            close(wakeReader)
            throw error
        }
        bus = connection
        DetachedThread.start(name: "tiltd.dbus") { [self] in runLoop() }
    }

    /// Takes one state that passed the gate (any thread). A state proves
    /// an accelerometer, even one that was missing when the service started.
    public func emit(_ state: KnobState) {
        update { properties in
            properties.state = state
            properties.hasAccelerometer = true
        }
    }

    /// Hears the device's status when it opens or changes (any thread):
    /// HasGyroscope says whether its gyroscope is fused (false once it is
    /// lost), HasAccelerometer becomes true and Device names it if it was
    /// not known at start.
    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        update { properties in
            properties.hasAccelerometer = true
            properties.hasGyroscope = fusingGyroscope
            if properties.device.isEmpty { properties.device = status.info.displayName }
        }
    }

    /// Changes the properties (any thread); claimants hear of the changes.
    public func update(_ change: (inout TiltProperties) -> Void) {
        shared.withLock { shared in
            change(&shared.properties)
            shared.pending = true
        }
        wake()
    }

    /// Releases the name, ends every claim (reporting 0 claims) and waits
    /// for the bus thread to finish. Idempotent.
    public func stop() {
        let first = shared.withLock { shared -> Bool in
            defer { shared.stopping = true }
            return !shared.stopping
        }
        guard first else { return }
        wake()
        finished.wait()
        close(wakeDescriptor)
        close(wakeReader)
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeDescriptor, &one, 1)  // a full pipe is already a pending wake-up
    }

    private func runLoop() {
        defer {
            bus = nil  // closes the connection, which releases the name
            if claims.count > 0 {
                claims.removeAll()
                onClaimCountChanged(0)
            }
            finished.signal()
        }
        guard let bus else { return }
        do {
            while true {
                try bus.processAvailable()
                if shared.withLock({ $0.stopping }) { return }
                if try bus.wait(orReadable: wakeReader) {
                    var drained = [UInt8](repeating: 0, count: 64)
                    while read(wakeReader, &drained, drained.count) > 0 {}
                }
                if shared.withLock({ $0.stopping }) { return }
                try publish(on: bus)
            }
        } catch {
            report(.error("D-Bus service stopped: \(error)"))
        }
    }

    /// Sends what changed since the last publication to every claimant.
    private func publish(on bus: SDBus) throws {
        let now = shared.withLock { shared -> TiltProperties? in
            defer { shared.pending = false }
            return shared.pending ? shared.properties : nil
        }
        guard let now else { return }
        defer { published = now }
        guard claims.count > 0 else { return }
        let changes = now.changes(since: published)
        guard !changes.isEmpty else { return }
        for client in claims.holders {
            do {
                try bus.emitPropertiesChanged(path: TiltProperties.objectPath, interface: TiltProperties.interface,
                                              changes: changes, to: client)
            } catch TiltBusError.disconnected(let name) {
                throw TiltBusError.disconnected(bus: name)
            } catch {
                if !sendFailed { report(.error("D-Bus: \(error) (reported once)")) }
                sendFailed = true
            }
        }
    }
}

extension TiltService: BusObjectHandler {
    func busProperty(_ name: String) -> BusValue? {
        shared.withLock { $0.properties }.value(of: name)
    }

    func busMethod(_ member: String, sender: String, user: UInt32?) -> BusMethodResult {
        switch member {
        case "Claim":
            switch claims.claim(sender, user: user) {
            case .added: onClaimCountChanged(claims.count)
            case .alreadyHeld: break
            case .full:
                return .failed(name: "net.tiltd.Tilt1.Error.TooManyClaims",
                               message: "\(claims.maximumCount) clients hold claims already; try again later")
            case .userFull:
                return .failed(name: "net.tiltd.Tilt1.Error.TooManyClaims",
                               message: "this user's connections hold \(claims.maximumPerUser) claims already; release one first")
            }
            return .done
        case "Release":
            if claims.release(sender) { onClaimCountChanged(claims.count) }
            return .done
        default:
            return .failed(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
        }
    }
}
