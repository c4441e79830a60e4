/// The clients that hold a claim, by unique bus name, bounded so that
/// callers cannot make the service hold an unbounded set.
struct ClaimSet {
    /// What a Claim call did.
    enum Outcome: Equatable {
        case added
        case alreadyHeld
        case full
    }

    let maximumCount: Int
    private(set) var holders: Set<String> = []

    init(maximumCount: Int) {
        precondition(maximumCount > 0)
        self.maximumCount = maximumCount
    }

    var count: Int { holders.count }

    /// Adds `client`'s claim (one per client, however often it calls Claim).
    mutating func claim(_ client: String) -> Outcome {
        if holders.contains(client) { return .alreadyHeld }
        guard holders.count < maximumCount else { return .full }
        holders.insert(client)
        return .added
    }

    /// Drops `client`'s claim (Release, or it left the bus); true if it had one.
    @discardableResult
    mutating func release(_ client: String) -> Bool {
        holders.remove(client) != nil
    }

    mutating func removeAll() { holders.removeAll() }
}
