/// The clients a DSU server streams data to: each with its address, its
/// own packet counter, dropped `DSUProtocol.subscriptionSeconds` after its
/// last data request. At most `capacity` at once: a request from a new
/// address when full is ignored (its sender gets nothing), so a flood of
/// requests from many addresses holds a bounded table and sends a bounded
/// stream.
///
/// A value type with no clock of its own: the server passes the time of each
/// request and each sample as a `Duration` since a start of its choosing, so
/// tests drive it with plain numbers. Kept in a small array, searched
/// linearly (there are at most `capacity`): a sample walks it without
/// hashing, and without expiring anything until the earliest subscription
/// runs out.
public struct DSUSubscribers<Address: Equatable & Sendable>: Sendable {
    public struct Subscriber: Sendable {
        public var address: Address
        public var selection: DSUSelection
        public var lastRequest: Duration
        /// The number the next data packet to this client carries.
        public var nextPacketNumber: UInt32 = 0
    }

    public let capacity: Int
    public let lifetime: Duration
    public private(set) var subscribers: [Subscriber] = []
    /// When the first subscription runs out (none while the table is empty).
    private var earliestExpiry: Duration?

    public init(capacity: Int, lifetime: Duration = .seconds(DSUProtocol.subscriptionSeconds)) {
        self.capacity = capacity
        self.lifetime = lifetime
        subscribers.reserveCapacity(capacity)
    }

    public var count: Int { subscribers.count }

    /// When the first subscription runs out (nil while nobody is subscribed).
    public var nextExpiry: Duration? { earliestExpiry }

    /// A data request from `address` at `now`: renews its subscription (a
    /// known client keeps its counter) or admits it if there is room after
    /// dropping the expired.
    ///
    /// - Returns: false when the table is full and the request was ignored.
    @discardableResult
    public mutating func request(from address: Address, selection: DSUSelection, at now: Duration) -> Bool {
        if let index = subscribers.firstIndex(where: { $0.address == address }) {
            subscribers[index].selection = selection
            subscribers[index].lastRequest = now
            earliestExpiry = subscribers.lazy.map(\.lastRequest).min().map { $0 + lifetime }
            return true
        }
        expire(at: now)
        guard subscribers.count < capacity else { return false }
        subscribers.append(Subscriber(address: address, selection: selection, lastRequest: now))
        earliestExpiry = min(earliestExpiry ?? now + lifetime, now + lifetime)
        return true
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

    /// Drops every subscriber (the server is closing).
    public mutating func removeAll() {
        subscribers.removeAll()
        earliestExpiry = nil
    }

    /// Drops the clients that have not re-requested within the lifetime.
    ///
    /// - Returns: whether any was dropped.
    @discardableResult
    public mutating func expire(at now: Duration) -> Bool {
        // Checked first: a sample does no more than this compare while nobody expires.
        guard let earliestExpiry, now >= earliestExpiry else { return false }
        let lifetime = self.lifetime
        subscribers.removeAll { now >= $0.lastRequest + lifetime }
        self.earliestExpiry = subscribers.lazy.map(\.lastRequest).min().map { $0 + lifetime }
        return true
    }

    /// Calls `send` for every live client that asked for `controller`, with
    /// its packet number, then advances its counter.
    public mutating func forEachRecipient(of controller: DSUController, at now: Duration,
                                          _ send: (Address, UInt32) -> Void) {
        expire(at: now)
        for index in subscribers.indices where subscribers[index].selection.includes(controller) {
            let number = subscribers[index].nextPacketNumber
            subscribers[index].nextPacketNumber = number &+ 1
            send(subscribers[index].address, number)
        }
    }
}
