import Devices
import Knob
import Motion
import Platform
import SamplePath
import Synchronization
import Wording

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
///
/// Each claimant has at most one signal on its way: after a signal the
/// service pings it (org.freedesktop.DBus.Peer.Ping, which every D-Bus
/// library answers while its program reads), and sends it nothing more
/// until the answer comes; the next signal then carries everything that
/// changed since its last one. So a claimant that stops reading makes the
/// bus daemon hold one signal for it, not one per state; one that has not
/// answered within `claimantPatience` loses its claim.
public final class TiltService: StateSink, @unchecked Sendable {
    // Safe to share: `newest` is a Mutex, `finished` a latch set by `init`,
    // `stopping` atomic, `wake` only woken off the bus thread; `bus`, `claims`,
    // `published` and `publishedSequence` are touched only on the bus thread
    // (after `init` hands them over, before the thread starts).
    private let newest: NewestValue<TiltProperties>
    private let stopping = Atomic<Bool>(false)
    /// Opened when the bus thread has ended.
    private var finished: Latch?
    /// Wakes the bus thread (any thread); drained only on the bus thread.
    private let wake: WakePipe
    private let onClaimCountChanged: @Sendable (Int) -> Void
    private let report: @Sendable (Diagnostic) -> Void
    private var bus: SDBus?
    private var claims: ClaimSet
    private var published: TiltProperties
    private var publishedSequence: UInt64 = 0
    private var sendFailed = false
    /// Each claimant's flow: what it was last sent, and whether that
    /// signal's ping is unanswered (bus thread only).
    private var flows: [String: ClaimantFlow] = [:]
    /// Set when a ping's answer lets a claimant hear of changes it missed.
    private var flowReopened = false
    private let claimantPatience: Duration

    private struct ClaimantFlow {
        var sent: TiltProperties
        var awaitingAnswer = false
    }

    /// Connects, exports the object, takes the name and starts the bus thread.
    ///
    /// - Parameters:
    ///   - address: the bus to serve on.
    ///   - properties: the initial values (device, HasAccelerometer, …).
    ///   - maximumClaims: how many clients may hold a claim at once.
    ///   - maximumClaimsPerUser: how many of them may be one user's.
    ///   - claimantPatience: how long a claimant may leave a ping unanswered
    ///     (it reads nothing) before its claim is dropped.
    ///   - onClaimCountChanged: called on the bus thread with the new number
    ///     of claims whenever it changes (0 → 1: open the device; 1 → 0:
    ///     close it); must not block.
    ///   - report: prints a one-line notice (a failure of the bus).
    /// - Throws: `TiltBusError` (no bus, name owned by another process, …).
    public init(bus address: BusAddress, properties: TiltProperties, maximumClaims: Int = 64,
                maximumClaimsPerUser: Int = 8, claimantPatience: Duration = .seconds(10),
                onClaimCountChanged: @escaping @Sendable (Int) -> Void,
                report: @escaping @Sendable (Diagnostic) -> Void) throws {
        published = properties
        self.claimantPatience = claimantPatience
        claims = ClaimSet(maximumCount: maximumClaims, maximumPerUser: maximumClaimsPerUser)
        self.onClaimCountChanged = onClaimCountChanged
        self.report = report
        let connection = try SDBus(address)
        let wake = try WakePipe(bus: address.description)
        self.wake = wake
        // The mailbox holds the pipe: a late update still writes to it.
        newest = NewestValue(properties) { wake.wake() }
        try connection.exportObject(path: TiltProperties.objectPath, interface: TiltProperties.interface,
                                    handler: self)
        try connection.watchNameOwners { [unowned self] name, _, newOwner in
            if newOwner.isEmpty { release(name) }
        }
        try connection.requestName(TiltProperties.busName)
        bus = connection
        finished = DetachedThread.start(name: "tiltd.dbus") { [self] in runLoop() }
    }

    /// Takes one state that passed the gate (any thread). A state proves
    /// an accelerometer, even one that was missing when the service started.
    public func emit(_ state: EncodedState) {
        update { properties in
            properties.state = state.state
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

    /// Hears that the device stopped (any thread): the properties go back to
    /// their values before a first state (undefined, vertical, zero angles),
    /// so no claimant reads a stale orientation; a lost device also clears
    /// HasAccelerometer (and HasGyroscope) until it opens again.
    public func deviceStopped(_ stop: DeviceStop) {
        update { properties in
            properties.state = nil
            if case .lost = stop {
                properties.hasAccelerometer = false
                properties.hasGyroscope = false
            }
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
        await finished?.wait()
    }

    private func runLoop() {
        defer {
            bus = nil  // closes the connection, which releases the name
            if claims.count > 0 {
                claims.removeAll()
                flows.removeAll()
                onClaimCountChanged(0)
            }
        }
        guard let bus else { return }
        do {
            while true {
                try bus.processAvailable()
                if stopping.load(ordering: .acquiring) { return }
                try publish(on: bus)
                if try bus.wait(orReadable: wake.reader) { wake.drain() }
                if stopping.load(ordering: .acquiring) { return }
            }
        } catch {
            report(.error("D-Bus service stopped: \(error)"))
        }
    }

    /// Drops `client`'s claim and flow (Release, it left the bus, or it
    /// stopped answering); bus thread only.
    private func release(_ client: String) {
        flows[client] = nil
        if claims.release(client) { onClaimCountChanged(claims.count) }
    }

    /// Sends each claimant whose last signal was answered what changed
    /// since that signal, then pings it.
    private func publish(on bus: SDBus) throws {
        let entry = newest.current
        guard entry.sequence > publishedSequence || flowReopened else { return }
        let now = entry.value
        publishedSequence = entry.sequence
        flowReopened = false
        published = now
        let patience = UInt64(claimantPatience.components.seconds) * 1_000_000
            + UInt64(claimantPatience.components.attoseconds / 1_000_000_000_000)
        for client in Array(flows.keys) {
            guard var flow = flows[client], !flow.awaitingAnswer else { continue }
            let changes = now.changes(since: flow.sent)
            guard !changes.isEmpty else { continue }
            do {
                try bus.emitPropertiesChanged(path: TiltProperties.objectPath, interface: TiltProperties.interface,
                                              changes: changes, to: client)
                flow.sent = now
                flow.awaitingAnswer = true
                flows[client] = flow
                try bus.ping(client, timeoutMicroseconds: patience) { [unowned self] answered in
                    guard flows[client] != nil else { return }
                    if answered {
                        flows[client]?.awaitingAnswer = false
                        flowReopened = true
                    } else {
                        report(.notice("D-Bus: \(client) read nothing for \(claimantPatience); its claim is dropped"))
                        release(client)
                    }
                }
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
            case .added:
                // It has what Get would answer now; signals carry changes from there.
                flows[sender] = ClaimantFlow(sent: newest.current.value)
                onClaimCountChanged(claims.count)
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
            release(sender)
            return .done
        default:
            return .failed(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
        }
    }
}
