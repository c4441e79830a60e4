import Devices
import Knob
import Logging
import Motion
import NIOCore
import NIOPosix
import Platform
import SamplePath
import ServiceLifecycle
import Synchronization

/// Serves the device's motion to emulators over UDP with the cemuhook
/// protocol (docs/dsu.md): a consumer of the hub that takes
/// every sample, not only gated states.
///
/// Requests are read on SwiftNIO's event loop: version and ports-info
/// requests are answered there (one packet per slot asked for, so an answer
/// is never more than the request justifies), a data request subscribes its
/// sender to what it selected (`DSUSubscribers`: each slot's, MAC's or
/// every controller's selection lapsing 5 s after its own last request; at
/// most `Limits.maxClients`, the least recent yielding when full). Anything
/// that is not a valid request is ignored without a reply. Each sample's
/// data packet is built once on the producer's thread and stamped and sent
/// to each subscriber without blocking; a subscriber whose port answers
/// "unreachable" is dropped. Subscribers are dropped only on the event
/// loop, after it has read the requests waiting (so a stalled server keeps
/// the clients whose renewals queued meanwhile). Slot 0 is the device;
/// slots 1–3 are empty.
///
/// A clock drives the subscriptions' lifetime (tests inject one). Not
/// generic over it: the sample path is one specialized function, with the
/// time read through one closure.
public final class DSUServer: StateSink, Service, @unchecked Sendable {
    // Safe to share: mutable state is in `state` (a Mutex) or atomic; the
    // rest is immutable after init.

    /// Limits that keep what clients can make the server hold and send bounded.
    public struct Limits: Sendable {
        /// Subscribers at once; when full, the one that asked least recently
        /// yields to a new address.
        public var maxClients = 16
        /// Subscribers one host beyond this machine may hold; its least
        /// recent yields to its next.
        public var maxClientsPerHost = 4
        /// How long a subscription lasts after its last data request (the
        /// protocol's 5 s; tests shorten it).
        public var subscriptionLifetime = Duration.seconds(DSUProtocol.subscriptionSeconds)

        public init() {}
    }

    /// The address served (with the bound port when port 0 was asked for).
    public let address: DSUAddress
    /// The id packets carry at byte 12, random per run.
    public let serverID: UInt32
    public var wantsEverySample: Bool { true }

    private struct State {
        var subscribers: DSUSubscribers<DSUDatagramSocket.Destination>
        var controller: DSUController
        var axes: DSUAxes
        /// The data packet, rewritten for each sample (no allocation per sample).
        var packet: DSUDataPacket
        /// -1 once closed.
        var sendDescriptor: Int32
    }

    private let state: Mutex<State>
    private let hasSubscribers = Atomic<Bool>(false)
    /// Slot 0's model as the last sample showed it (a gyroscope's rate or none).
    private let model = Atomic<UInt8>(DSUController.Model.accelerometerOnly.rawValue)
    /// The time since the server started, on its clock.
    private let now: @Sendable () -> Duration
    private let machineID: String
    private let channel: any Channel
    private let logger: Logger
    private let onClientCountChange: @Sendable (Int) -> Void
    private let closed = Atomic<Bool>(false)
    private let links = Atomic<Int>(0)
    private let limits: Limits
    /// Whether displacing has been logged since the table last had room.
    private let displacementNoted = Atomic<Bool>(false)
    /// The wake-up that drops subscribers who stopped asking while no sample
    /// comes: armed at the earliest expiry only while there are subscribers
    /// (an idle server never wakes). Touched on the event loop only.
    private var expiryTimer: Scheduled<Void>?

    /// Binds `address` and starts answering requests, timing subscriptions
    /// on `clock` (tests inject one).
    ///
    /// - Parameters:
    ///   - deviceKey: names the device until a live capture says which it is
    ///     (`captureStatus`): the slot's MAC derives from it and the machine id.
    ///   - axes: how samples map to DSU's axes until then.
    ///   - machineID: /etc/machine-id's contents (tests pass their own).
    ///   - onClientCountChange: the number of subscribers whenever it changes
    ///     (drives the on-demand switch; any thread, must not block).
    /// - Throws: `Failure` naming the address when the socket cannot be bound.
    public convenience init<C: Clock>(address: DSUAddress, deviceKey: String = "replay", axes: DSUAxes = .screen,
                                      limits: Limits = Limits(), clock: C, machineID: String = DSUServerDefaults.machineID(),
                                      logger: Logger = TiltdLog.logger,
                                      onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) async throws
    where C.Duration == Duration {
        let start = clock.now
        try await self.init(address: address, deviceKey: deviceKey, axes: axes, limits: limits,
                            now: { start.duration(to: clock.now) }, machineID: machineID, logger: logger,
                            onClientCountChange: onClientCountChange)
    }

    /// Binds `address` with the system's continuous clock (see the init above).
    public convenience init(address: DSUAddress, deviceKey: String = "replay", limits: Limits = Limits(),
                            logger: Logger = TiltdLog.logger,
                            onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let start = ContinuousClock.now
        try await self.init(address: address, deviceKey: deviceKey, axes: .screen, limits: limits,
                            now: { start.duration(to: .now) }, machineID: DSUServerDefaults.machineID(), logger: logger,
                            onClientCountChange: onClientCountChange)
    }

    private init(address: DSUAddress, deviceKey: String, axes: DSUAxes, limits: Limits,
                 now: @escaping @Sendable () -> Duration, machineID: String, logger: Logger,
                 onClientCountChange: @escaping @Sendable (Int) -> Void) async throws {
        let socket = try DSUDatagramSocket(binding: address)
        self.address = DSUAddress(host: address.host, port: socket.boundPort)
        serverID = UInt32.random(in: 1...UInt32.max)
        self.now = now
        self.machineID = machineID
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        self.limits = limits
        let controller = DSUController(slot: 0, state: .connected, model: .accelerometerOnly,
                                       mac: DSUMAC(machineID: machineID, deviceKey: deviceKey))
        let still = DSUMotion(timestampMicroseconds: 0, accelerationG: .zero, rotationDegreesPerSecond: .zero)
        state = Mutex(State(subscribers: DSUSubscribers(capacity: limits.maxClients, lifetime: limits.subscriptionLifetime,
                                                        maxClientsPerHost: limits.maxClientsPerHost),
                            controller: controller,
                            axes: axes, packet: DSUDataPacket(controller: controller, motion: still, serverID: serverID),
                            sendDescriptor: socket.sendDescriptor))
        let requests = DSURequestHandler()
        do {
            channel = try await Self.requestChannel(on: MultiThreadedEventLoopGroup.singleton, handler: requests)
                // Reading starts once the handler knows its server (below).
                .channelOption(.autoRead, value: false)
                .withBoundSocket(socket.channelDescriptor).get()
        } catch {
            DSUDatagramSocket.close(socket.sendDescriptor)
            throw Failure.serve(address: address, reason: "\(error)")
        }
        requests.server = self
        try await channel.setOption(.autoRead, value: true).get()
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.expiryTimer?.cancel()
            self?.expiryTimer = nil
        }
        if let warning = address.exposureWarning { logger.warning("\(warning)") }
        logger.notice("serving DSU motion on udp:\(self.address)")
    }

    /// How a socket reads requests: into `handler`, one byte more than any
    /// request (a longer datagram arrives truncated to that and is ignored
    /// as oversized).
    private static func requestChannel(on group: any EventLoopGroup, handler: DSURequestHandler) -> DatagramBootstrap {
        DatagramBootstrap(group: group)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: DSUProtocol.maximumRequestBytes + 1))
            // Every request waiting is read before the loop's timers run (a
            // server that was stopped finds its clients' renewals first).
            .channelOption(.maxMessagesPerRead, value: 64)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
    }

    /// A socket of its own for a new subscriber, connected to it (nil when
    /// it cannot be made, or its two descriptors would reach into the
    /// process's reserve: packets then leave from the server's socket).
    private func link(to client: SocketAddress) -> DSUDatagramSocket.Link? {
        guard DescriptorBudget.allows(2) else { return nil }
        guard let fd = DSUDatagramSocket.connectedSocket(serving: address.socketAddress, to: client) else { return nil }
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            DSUDatagramSocket.close(fd)
            return nil
        }
        let requests = DSURequestHandler()
        requests.server = self
        requests.client = client
        let reader = Self.requestChannel(on: channel.eventLoop, handler: requests).withBoundSocket(fd)
        links.add(1, ordering: .relaxed)
        reader.whenComplete { [weak self] result in
            switch result {
            case .success(let channel):
                channel.closeFuture.whenComplete { [weak self] _ in self?.links.subtract(1, ordering: .relaxed) }
            case .failure: self?.links.subtract(1, ordering: .relaxed)
            }
        }
        return DSUDatagramSocket.Link(sendDescriptor: duplicate, channel: reader)
    }

    /// Subscribers' connected sockets still open. Each closes just after its
    /// subscriber goes: a request that arrives in between is lost (its
    /// client asks again, as DSU clients do every second or so).
    public var openClientSockets: Int { links.load(ordering: .relaxed) }

    /// The number of subscribed clients.
    public var clientCount: Int { state.withLock { $0.subscribers.count } }

    /// What slot 0 says now.
    public var controller: DSUController {
        var controller = state.withLock { $0.controller }
        controller.model = DSUController.Model(rawValue: model.load(ordering: .relaxed)) ?? .accelerometerOnly
        return controller
    }

    /// Drops the clients that have not re-requested in time (the event loop
    /// calls it at the earliest expiry; tests after moving their clock).
    public func expireClients() {
        let now = now()
        state.withLock { state in
            if state.subscribers.expire(at: now) { changed(&state) }
        }
    }

    /// Whether the expiry wake-up is armed (it is while anyone is subscribed).
    public var expiryArmed: Bool {
        get async throws { try await channel.eventLoop.submit { self.expiryTimer != nil }.get() }
    }

    /// Arms the expiry wake-up for the earliest subscription's end, unless
    /// it is armed or nobody is subscribed (on the event loop). Renewals move
    /// that end later without touching the timer: when it fires early it
    /// drops nobody and re-arms, about once a lifetime per live client.
    ///
    /// The wake-up does not drop anyone itself: a process held up (stopped,
    /// starved) can be resumed between its poll and its timers, with
    /// renewals already queued. It hands over to a second wake-up
    /// `expiryGrace` later, so the event loop polls its sockets in between,
    /// and that one drops only once no request waits unread in the server's
    /// socket or a subscriber's own (else it looks again `expiryGrace`
    /// later, at most `maximumGraces` times: a flood cannot hold expiry off).
    private func armExpiry() {
        guard expiryTimer == nil, !closed.load(ordering: .relaxed) else { return }
        let (next, now) = state.withLock { ($0.subscribers.nextExpiry, self.now()) }
        guard let next else { return }
        expiryTimer = channel.eventLoop.scheduleTask(in: TimeAmount(max(next - now, .zero))) { [weak self] in
            self?.expireAfterGrace(graces: 1)
        }
    }

    func expireAfterGrace(graces: Int) {
        expiryTimer = channel.eventLoop.scheduleTask(in: Self.expiryGrace) { [weak self] in
            guard let self else { return }
            if graces < Self.maximumGraces, self.requestsWaiting {
                self.expireAfterGrace(graces: graces + 1)
                return
            }
            self.expiryTimer = nil
            self.expireClients()
            self.armExpiry()
        }
    }

    /// How long the event loop reads requests between an expiry wake-up and
    /// the drop it leads to.
    static let expiryGrace = TimeAmount.milliseconds(20)
    /// Graces at most before a drop, whatever waits (1 s in all).
    static let maximumGraces = 50

    /// Whether a datagram waits unread in the server's socket or in a
    /// subscriber's own (on the event loop).
    private var requestsWaiting: Bool {
        let descriptors = state.withLock { state in
            [state.sendDescriptor] + state.subscribers.subscribers.compactMap { $0.address.link?.sendDescriptor }
        }
        return descriptors.contains { DSUDatagramSocket.hasDatagramWaiting($0) }
    }

    /// The event loop that reads requests and drops subscribers.
    var eventLoop: any EventLoop { channel.eventLoop }

    private func changed(_ state: inout State) {
        hasSubscribers.store(state.subscribers.count > 0, ordering: .relaxed)
        if state.subscribers.count < state.subscribers.capacity { displacementNoted.store(false, ordering: .relaxed) }
        onClientCountChange(state.subscribers.count)
        noteDepartures(&state)
    }

    /// Says once, when a client leaves, how many data packets to it were
    /// dropped (its socket full, its network unreachable), if any: on the
    /// event loop, never on the producer's path.
    private func noteDepartures(_ state: inout State) {
        guard !state.subscribers.departures.isEmpty else { return }
        let departures = state.subscribers.takeDepartures()
        let logger = self.logger
        channel.eventLoop.execute {
            for departure in departures {
                logger.notice("""
                    DSU client \(departure.address.text) left; \(departure.droppedPackets) data packet(s) to it \
                    were dropped (its socket was full or its network unreachable)
                    """)
            }
        }
    }

    /// Answers one datagram (on the event loop).
    ///
    /// - Returns: the packets to send back to `sender`: none for anything
    ///   but a valid version or ports-info request.
    func answer(_ datagram: UnsafeRawBufferPointer, from sender: SocketAddress) -> [[UInt8]] {
        guard let (request, _) = DSURequest.parse(datagram) else { return [] }
        switch request {
        case .version:
            return [DSUPacket.version(serverID: serverID)]
        case .portsInfo(let slots):
            let controller = self.controller
            var answered: [UInt8] = []
            for slot in slots where slot < DSUProtocol.slotCount && !answered.contains(slot) { answered.append(slot) }
            return answered.map { slot in
                DSUPacket.portInfo(slot == 0 ? controller : .empty(slot: slot), serverID: serverID)
            }
        case .data(let selection):
            let now = now(), destination = DSUDatagramSocket.Destination(sender)
            let host = DSUAddress.isLoopback(sender) ? nil : sender.ipAddress
            let (admitted, displaced) = state.withLock { state in
                let before = state.subscribers.count, known = state.subscribers.contains(destination)
                let displacedBefore = state.subscribers.displaced
                let admitted = state.subscribers.request(from: destination, host: host, selection: selection, at: now)
                if state.subscribers.count != before { changed(&state) } else { noteDepartures(&state) }
                return (admitted && !known && state.sendDescriptor >= 0, state.subscribers.displaced - displacedBefore)
            }
            if displaced > 0 { noteDisplaced(displaced, newcomer: sender) }
            // A new subscriber: made outside the lock, its socket then takes
            // over (unless it was dropped meanwhile; the link then closes).
            if admitted, let link = link(to: sender) {
                let linked = DSUDatagramSocket.Destination(sender, link: link)
                state.withLock { $0.subscribers.replaceAddress(with: linked) }
            }
            armExpiry()
            return []
        }
    }

    /// Says once per burst that subscribers yielded their place (a full
    /// table: many clients, or someone holding places with requests); said
    /// again only after the table has had room.
    private func noteDisplaced(_ count: Int, newcomer: SocketAddress) {
        guard !displacementNoted.exchange(true, ordering: .relaxed) else { return }
        logger.notice("""
            DSU clients at their limit (\(limits.maxClients) in all, \(limits.maxClientsPerHost) per host beyond this \
            machine): the one that asked least recently yielded to \(newcomer); not said again until there is room
            """)
    }

    /// Drops the subscriber at `address` (its port refused a packet).
    func refused(_ address: SocketAddress) {
        state.withLock { state in
            if state.subscribers.remove(DSUDatagramSocket.Destination(address)) { changed(&state) }
        }
    }

    public func take(_ sample: PublishedSample) {
        let model: DSUController.Model = sample.correctedRotationRate == nil ? .accelerometerOnly : .fullGyro
        self.model.store(model.rawValue, ordering: .relaxed)
        guard hasSubscribers.load(ordering: .relaxed) else { return }
        state.withLock { state in
            state.controller.model = model
            guard state.sendDescriptor >= 0,
                  let motion = state.axes.motion(acceleration: sample.reading.acceleration,
                                                 rotationRate: sample.correctedRotationRate,
                                                 timestampNanoseconds: sample.reading.timestampNanoseconds)
            else { return }
            let before = state.subscribers.count
            // Taken out of the state while the subscribers are walked, and
            // put back: its storage stays uniquely referenced, so reused.
            var packet = DSUDataPacket()
            swap(&packet, &state.packet)
            packet.update(controller: state.controller, motion: motion)
            let descriptor = state.sendDescriptor
            state.subscribers.forEachRecipient(of: state.controller) { address, number in
                packet.stamp(packetNumber: number)
                return DSUDatagramSocket.send(descriptor, packet.bytes, to: address)
            }
            state.packet = packet
            if state.subscribers.count != before { changed(&state) }
        }
    }

    public func emit(_ state: EncodedState) {}

    /// A live device opened: slot 0 takes its MAC, model and axes.
    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        let mac = DSUMAC(machineID: machineID, deviceKey: DSUServerDefaults.deviceKey(status))
        let axes = DSUAxes(status)
        state.withLock { state in
            state.controller.mac = mac
            state.controller.state = .connected
            state.axes = axes
        }
        model.store((fusingGyroscope ? DSUController.Model.fullGyro : .accelerometerOnly).rawValue, ordering: .relaxed)
    }

    /// A lost device leaves slot 0 empty (not connected in every ports-info
    /// and data packet) until it opens again (`captureStatus`). A released
    /// one stays connected: it opens again as soon as a client subscribes.
    public func deviceStopped(_ stop: DeviceStop) {
        guard case .lost = stop else { return }
        state.withLock { $0.controller.state = .notConnected }
    }

    /// Slot 0's battery from now on (the machine's, read off the sample path).
    ///
    /// - Returns: false once the server is closed (a reader can stop).
    @discardableResult
    public func setBattery(_ battery: DSUController.Battery) -> Bool {
        state.withLock { $0.controller.battery = battery }
        return !closed.load(ordering: .relaxed)
    }

    /// Stops sending and closes the socket. Idempotent; never blocks. Call
    /// it once the producer has stopped (or SIGTERM: packets stop at once).
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        state.withLock { state in
            if state.sendDescriptor >= 0 { DSUDatagramSocket.close(state.sendDescriptor) }
            state.sendDescriptor = -1
            // Their connected sockets close with them.
            state.subscribers.removeAll()
            changed(&state)
        }
        channel.close(promise: nil)
    }

    /// Serves until the lifecycle shuts down, then closes.
    public func run() async throws {
        let closeFuture = channel.closeFuture
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await closeFuture.get()
            } onGracefulShutdown: {
                self.close()
            }
        } onCancel: {
            self.close()
        }
    }

    deinit { close() }
}

/// Reads requests off the channel and writes the server's answers back.
private final class DSURequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    /// Set before the channel starts reading; weak: the server owns the channel.
    weak var server: DSUServer?
    /// The client a subscriber's connected socket serves (nil on the server's own socket).
    var client: SocketAddress?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard let server else { return }
        let answers = envelope.data.withUnsafeReadableBytes { server.answer($0, from: envelope.remoteAddress) }
        for answer in answers {
            context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: envelope.remoteAddress,
                                                            data: ByteBuffer(bytes: answer))), promise: nil)
        }
        if !answers.isEmpty { context.flush() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A datagram socket's errors (an ICMP answer to an earlier send) end
        // nothing; a subscriber's port that refused a packet ends its stream.
        if let client, let error = error as? IOError, error.errnoCode == ECONNREFUSED { server?.refused(client) }
    }
}

/// Where a server's MAC comes from by default.
public enum DSUServerDefaults {
    /// /etc/machine-id's first line, or "" when it cannot be read (the MAC is
    /// then stable per device only).
    public static func machineID(path: String = "/etc/machine-id") -> String {
        String(decoding: DSUDatagramSocket.readFirstBytes(path, count: 64), as: UTF8.self).prefix { $0 != "\n" }
            .description
    }

    /// What names a live device across runs: a pad's ids and name, an IIO
    /// device's name, label and location.
    public static func deviceKey(_ status: CaptureStatus) -> String {
        if let pad = status.pad { return "evdev:\(pad.vendor):\(pad.product):\(pad.name)" }
        let info = status.info
        return "iio:\(info.name ?? info.id):\(info.label ?? ""):\(info.udevLocation ?? "")"
    }
}
