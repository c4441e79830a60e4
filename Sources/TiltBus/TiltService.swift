import Glibc
import Knob
import Motion
import Sensors
import Streaming
import Synchronization

/// The D-Bus service `net.tiltd.Tilt`: exports `/net/tiltd/Tilt` with
/// interface `net.tiltd.Tilt1` (docs/dbus.md) and sends PropertiesChanged
/// to the clients that hold a claim.
///
/// The bus is driven by one thread of its own (sd-bus is not thread-safe),
/// started by `init` and ended by `stop()`. It is a consumer of the hub:
/// `emit(_:)` only stores the newest properties in a `NewestValue` mailbox,
/// whose posts wake the thread through a pipe: a burst of states between
/// two wake-ups goes out as one signal, so signals never come faster than
/// states pass the gate, and a slow bus never holds up the capture thread.
public final class TiltService: StateSink, @unchecked Sendable {
    // Safe to share: `newest` and `finished` are Mutexes, `stopping` atomic,
    // `wakeDescriptor` is only written to; `bus`, `claims`, `published` and
    // `publishedSequence` are touched only on the bus thread (after `init`
    // hands them over, before the thread starts).
    private let newest: NewestValue<TiltProperties>
    private let stopping = Atomic<Bool>(false)
    /// The bus thread has ended (true), or who waits for it to.
    private let finished = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// The self-pipe that wakes the bus thread: written by any thread, read
    /// (drained) only on the bus thread.
    private let wakeDescriptor: Int32
    private let wakeReader: Int32
    private let onClaimCountChanged: @Sendable (Int) -> Void
    private let report: @Sendable (Diagnostic) -> Void
    private var bus: SDBus?
    private var claims: ClaimSet
    private var published: TiltProperties
    private var publishedSequence: UInt64 = 0
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
        newest = NewestValue(properties) { [wakeDescriptor = ends[1]] in
            var one: UInt8 = 1
            _ = write(wakeDescriptor, &one, 1)  // a full pipe is already a pending wake-up
        }
        // A failure from here on deinitializes self, which closes the pipe.
        try connection.exportObject(path: TiltProperties.objectPath, interface: TiltProperties.interface,
                                    handler: self)
        try connection.watchNameOwners { [unowned self] name, _, newOwner in
            if newOwner.isEmpty, claims.release(name) { onClaimCountChanged(claims.count) }
        }
        try connection.requestName(TiltProperties.busName)
        bus = connection
        DetachedThread.start(name: "tiltd.dbus") { [self] in runLoop() }
    }

    // The pipe outlives the thread: a late update still writes to it, not
    // to a descriptor number reused by then.
    deinit {
        close(wakeDescriptor)
        close(wakeReader)
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
        newest.update { change(&$0); return true }
    }

    /// Asks the bus thread to release the name, end every claim (reporting
    /// 0 claims) and finish; returns at once. Idempotent.
    public func requestStop() {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) { newest.wakeAll() }
    }

    /// `requestStop()`, then waits until the bus thread has finished.
    public func stop() async {
        requestStop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = finished.withLock { finished in
                if !finished.done { finished.waiters.append(continuation) }
                return finished.done
            }
            if done { continuation.resume() }
        }
    }

    private func runLoop() {
        defer {
            bus = nil  // closes the connection, which releases the name
            if claims.count > 0 {
                claims.removeAll()
                onClaimCountChanged(0)
            }
            let waiters = finished.withLock { finished in
                finished.done = true
                return finished.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        guard let bus else { return }
        do {
            while true {
                try bus.processAvailable()
                if stopping.load(ordering: .acquiring) { return }
                if try bus.wait(orReadable: wakeReader) {
                    var drained = [UInt8](repeating: 0, count: 64)
                    while read(wakeReader, &drained, drained.count) > 0 {}
                }
                if stopping.load(ordering: .acquiring) { return }
                try publish(on: bus)
            }
        } catch {
            report(.error("D-Bus service stopped: \(error)"))
        }
    }

    /// Sends what changed since the last publication to every claimant.
    private func publish(on bus: SDBus) throws {
        let entry = newest.current
        guard entry.sequence > publishedSequence else { return }
        let now = entry.value
        publishedSequence = entry.sequence
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
        newest.current.value.value(of: name)
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
