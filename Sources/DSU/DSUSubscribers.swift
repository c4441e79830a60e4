/// The clients a DSU server streams data to, as the reference servers keep
/// them: each client (an address) holds a request time per selection it
/// made — every controller, each slot, each MAC — and each selection lapses
/// on its own `lifetime` after its last request, so a request for one slot
/// never cancels another (Cemu asks for slots 0–3 in turn on one socket).
/// A client goes when its last selection lapses.
///
/// Packets are numbered per controller, not per client: every client sees
/// one counter that only goes on, also when it drops out and subscribes
/// again (Citra ignores a packet whose number is not above the last).
///
/// Bounded: at most `capacity` clients, at most `maxMACsPerClient` MAC
/// selections each, and at most `maxClientsPerHost` clients from one host
/// that is not this machine. When the table is full, the client that asked
/// least recently yields to the newcomer (a squatter that renews slowly
/// cannot keep a client that renews as emulators do out); a host at its
/// share yields one of its own clients the same way.
///
/// A value type with no clock of its own: the server passes the time of each
/// request and each sample as a `Duration` since a start of its choosing, so
/// tests drive it with plain numbers. Time is never looked at while samples
/// are sent: only `expire(at:)` lets selections lapse and drops clients,
/// and the server calls it after reading the requests waiting, so a renewal
/// that queued while the server was held up always counts.
public struct DSUSubscribers<Address: Equatable & Sendable>: Sendable {
    public struct Subscriber: Sendable {
        public var address: Address
        /// The host the client sends from, when it counts toward a host's
        /// share (nil for this machine's own clients).
        public var host: String?
        /// When every controller was last asked for (flag 0).
        public var allRequested: Duration?
        /// When each slot was last asked for (flag bit 0).
        public var slotRequested: [Duration?]
        /// The MACs asked for (flag bit 1), each with its last request.
        public var macRequested: [(mac: DSUMAC, at: Duration)]
        /// The latest request of any kind.
        public var lastRequest: Duration
        /// Data packets lost on the way out to it (its socket's buffer
        /// full, its network unreachable), while subscribed.
        public var droppedPackets = 0

        /// Whether this client's selections include `controller`.
        public func wants(_ controller: DSUController) -> Bool {
            if allRequested != nil { return true }
            let slot = Int(controller.slot)
            if slot < slotRequested.count, slotRequested[slot] != nil { return true }
            return macRequested.contains { $0.mac == controller.mac }
        }

        /// When its first selection lapses.
        var firstRequest: Duration? {
            ([allRequested] + slotRequested + macRequested.map(\.at)).compactMap { $0 }.min()
        }

        /// Lets the selections made `lifetime` or longer before `now` lapse.
        ///
        /// - Returns: whether any selection is left.
        mutating func lapse(at now: Duration, lifetime: Duration) -> Bool {
            func live(_ time: Duration?) -> Duration? { time.flatMap { now < $0 + lifetime ? $0 : nil } }
            allRequested = live(allRequested)
            for index in slotRequested.indices { slotRequested[index] = live(slotRequested[index]) }
            macRequested.removeAll { now >= $0.at + lifetime }
            return firstRequest != nil
        }
    }

    public let capacity: Int
    public let lifetime: Duration
    public let maxClientsPerHost: Int
    public let maxMACsPerClient: Int
    public private(set) var subscribers: [Subscriber] = []
    /// Clients that yielded their place to a newcomer, since the start.
    public private(set) var displaced = 0
    /// The clients that left (lapsed, displaced, refused, removed) after
    /// packets to them were dropped, with the count, until taken
    /// (`takeDepartures`): the server says each once.
    public private(set) var departures: [(address: Address, droppedPackets: Int)] = []
    /// The number the next data packet of each slot carries.
    private var packetNumbers = [UInt32](repeating: 0, count: DSUProtocol.slotCount)
    /// When the first selection lapses (none while the table is empty).
    private var earliestExpiry: Duration?

    public init(capacity: Int, lifetime: Duration = .seconds(DSUProtocol.subscriptionSeconds),
                maxClientsPerHost: Int = 4, maxMACsPerClient: Int = 4) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.maxClientsPerHost = maxClientsPerHost
        self.maxMACsPerClient = maxMACsPerClient
        subscribers.reserveCapacity(capacity)
    }

    public var count: Int { subscribers.count }

    /// When the first selection lapses (nil while nobody is subscribed).
    public var nextExpiry: Duration? { earliestExpiry }

    /// A data request from `address` at `now`: records the selection's time
    /// (a known client keeps its others) or admits the client, making room
    /// first by dropping the lapsed, then, if still full, by displacing the
    /// client that asked least recently.
    ///
    /// - Parameter host: the sender's host when it counts toward a host's
    ///   share (nil for loopback: any local user can use any 127.x address,
    ///   so a share per host would bound nothing there).
    /// - Returns: false when the request was ignored (no room could be made).
    @discardableResult
    public mutating func request(from address: Address, host: String? = nil, selection: DSUSelection,
                                 at now: Duration) -> Bool {
        if let index = subscribers.firstIndex(where: { $0.address == address }) {
            record(selection, at: now, in: &subscribers[index])
            updateEarliestExpiry()
            return true
        }
        guard capacity > 0 else { return false }
        // Room is made only when needed: a lapsed client whose renewal waits
        // behind this request is otherwise still there when it is read.
        if subscribers.count >= capacity { expire(at: now) }
        if let host, maxClientsPerHost > 0 {
            let ownIndices = subscribers.indices.filter { subscribers[$0].host == host }
            if ownIndices.count >= maxClientsPerHost, let oldest = leastRecent(among: ownIndices) {
                removeSubscriber(at: oldest)
                displaced += 1
            }
        }
        if subscribers.count >= capacity, let oldest = leastRecent(among: Array(subscribers.indices)) {
            removeSubscriber(at: oldest)
            displaced += 1
        }
        var subscriber = Subscriber(address: address, host: host, allRequested: nil,
                                    slotRequested: [Duration?](repeating: nil, count: DSUProtocol.slotCount),
                                    macRequested: [], lastRequest: now)
        record(selection, at: now, in: &subscriber)
        subscribers.append(subscriber)
        updateEarliestExpiry()
        return true
    }

    /// Removes the subscriber at `index`, noting its dropped packets.
    private mutating func removeSubscriber(at index: Int) {
        let gone = subscribers.remove(at: index)
        // Bounded like the table: a burst of departures before the server
        // takes them keeps the latest.
        if gone.droppedPackets > 0 {
            if departures.count >= max(capacity, 1) { departures.removeFirst() }
            departures.append((gone.address, gone.droppedPackets))
        }
    }

    /// The departures noted since the last call (see `departures`).
    public mutating func takeDepartures() -> [(address: Address, droppedPackets: Int)] {
        defer { departures.removeAll(keepingCapacity: true) }
        return departures
    }

    private func leastRecent(among indices: [Int]) -> Int? {
        indices.min { subscribers[$0].lastRequest < subscribers[$1].lastRequest }
    }

    private func record(_ selection: DSUSelection, at now: Duration, in subscriber: inout Subscriber) {
        subscriber.lastRequest = now
        if selection.flags == 0 {
            subscriber.allRequested = now
            return
        }
        if selection.flags & 1 != 0, Int(selection.slot) < subscriber.slotRequested.count {
            subscriber.slotRequested[Int(selection.slot)] = now
        }
        if selection.flags & 2 != 0 {
            if let index = subscriber.macRequested.firstIndex(where: { $0.mac == selection.mac }) {
                subscriber.macRequested[index].at = now
            } else {
                if subscriber.macRequested.count >= maxMACsPerClient,
                   let oldest = subscriber.macRequested.indices.min(by: {
                       subscriber.macRequested[$0].at < subscriber.macRequested[$1].at
                   }) {
                    subscriber.macRequested.remove(at: oldest)
                }
                subscriber.macRequested.append((selection.mac, now))
            }
        }
    }

    private mutating func updateEarliestExpiry() {
        earliestExpiry = subscribers.lazy.compactMap(\.firstRequest).min().map { $0 + lifetime }
    }

    /// Whether `address` is subscribed.
    public func contains(_ address: Address) -> Bool {
        subscribers.contains { $0.address == address }
    }

    /// Puts `address` in place of the equal one a subscriber has (one that
    /// carries more, such as a socket connected to it); nothing otherwise.
    public mutating func replaceAddress(with address: Address) {
        if let index = subscribers.firstIndex(where: { $0.address == address }) { subscribers[index].address = address }
    }

    /// Drops the client at `address` (its packets come back refused).
    ///
    /// - Returns: whether it was subscribed.
    @discardableResult
    public mutating func remove(_ address: Address) -> Bool {
        guard let index = subscribers.firstIndex(where: { $0.address == address }) else { return false }
        removeSubscriber(at: index)
        updateEarliestExpiry()
        return true
    }

    /// Drops every subscriber (the server is closing).
    public mutating func removeAll() {
        for index in subscribers.indices.reversed() { removeSubscriber(at: index) }
        earliestExpiry = nil
    }

    /// Lets the selections not renewed within the lifetime lapse, and drops
    /// the clients left with none.
    ///
    /// - Returns: whether any client was dropped.
    @discardableResult
    public mutating func expire(at now: Duration) -> Bool {
        // Checked first: nothing more than this compare while nothing lapses.
        guard let earliestExpiry, now >= earliestExpiry else { return false }
        let before = subscribers.count, lifetime = self.lifetime
        for index in subscribers.indices.reversed() where !subscribers[index].lapse(at: now, lifetime: lifetime) {
            removeSubscriber(at: index)
        }
        updateEarliestExpiry()
        return subscribers.count != before
    }

    /// Calls `send` for every client whose selections include
    /// `controller`, with the controller's packet number, which then goes
    /// on by one if anyone was sent to. `send` says what became of the
    /// packet: a dropped one is counted against that client, which stays;
    /// a refused one (nobody listens there) drops the client.
    ///
    /// - Returns: whether any client was dropped.
    @discardableResult
    public mutating func forEachRecipient(of controller: DSUController,
                                          _ send: (Address, UInt32) -> DSUDelivery) -> Bool {
        let slot = Int(controller.slot) < packetNumbers.count ? Int(controller.slot) : 0
        let number = packetNumbers[slot]
        var sent = false
        var refused: [Int] = []
        for index in subscribers.indices where subscribers[index].wants(controller) {
            sent = true
            switch send(subscribers[index].address, number) {
            case .sent: break
            case .dropped: subscribers[index].droppedPackets += 1
            case .refused: refused.append(index)
            }
        }
        if sent { packetNumbers[slot] = number &+ 1 }
        guard !refused.isEmpty else { return false }
        for index in refused.reversed() { removeSubscriber(at: index) }
        updateEarliestExpiry()
        return true
    }
}

/// What became of one data packet sent to a subscriber.
public enum DSUDelivery: Sendable, Equatable {
    /// Handed to the network.
    case sent
    /// Lost on the way out (the socket's buffer full, the network
    /// unreachable): counted; the next sample follows within milliseconds.
    case dropped
    /// Refused: nobody listens at the client's port any more.
    case refused
}
