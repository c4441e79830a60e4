/// The clients a DSU server streams data to: each keyed by its address, with
/// its own packet counter, dropped `DSUProtocol.subscriptionSeconds` after
/// its last data request. At most `capacity` at once: a request from a new
/// address when full is ignored (its sender gets nothing), so a flood of
/// requests from many addresses holds a bounded table and sends a bounded
/// stream.
///
/// A value type with no clock of its own: the server passes the time of each
/// request and each sample, so tests drive it with any `InstantProtocol`.
public struct DSUSubscribers<Address: Hashable & Sendable, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
    public struct Subscriber: Sendable {
        public var selection: DSUSelection
        public var lastRequest: Instant
        /// The number the next data packet to this client carries.
        public var nextPacketNumber: UInt32 = 0
    }

    public let capacity: Int
    public let lifetime: Duration
    public private(set) var subscribers: [Address: Subscriber] = [:]

    public init(capacity: Int, lifetime: Duration = .seconds(DSUProtocol.subscriptionSeconds)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    public var count: Int { subscribers.count }

    /// A data request from `address` at `now`: renews its subscription (a
    /// known client keeps its counter) or admits it if there is room after
    /// dropping the expired.
    ///
    /// - Returns: false when the table is full and the request was ignored.
    @discardableResult
    public mutating func request(from address: Address, selection: DSUSelection, at now: Instant) -> Bool {
        if subscribers[address] != nil {
            subscribers[address]!.selection = selection
            subscribers[address]!.lastRequest = now
            return true
        }
        expire(at: now)
        guard subscribers.count < capacity else { return false }
        subscribers[address] = Subscriber(selection: selection, lastRequest: now)
        return true
    }

    /// Drops the clients that have not re-requested within the lifetime.
    ///
    /// - Returns: whether any was dropped.
    @discardableResult
    public mutating func expire(at now: Instant) -> Bool {
        // Checked first: a sample must not allocate when nobody expires.
        guard subscribers.values.contains(where: { now >= $0.lastRequest.advanced(by: lifetime) }) else { return false }
        subscribers = subscribers.filter { now < $0.value.lastRequest.advanced(by: lifetime) }
        return true
    }

    /// Calls `send` for every live client that asked for `controller`, with
    /// its packet number, then advances its counter.
    public mutating func forEachRecipient(of controller: DSUController, at now: Instant,
                                          _ send: (Address, UInt32) -> Void) {
        expire(at: now)
        var index = subscribers.startIndex
        while index != subscribers.endIndex {
            let (address, subscriber) = subscribers[index]
            if subscriber.selection.includes(controller) {
                send(address, subscriber.nextPacketNumber)
                subscribers.values[index].nextPacketNumber &+= 1
            }
            subscribers.formIndex(after: &index)
        }
    }
}
