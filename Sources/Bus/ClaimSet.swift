/// The clients that hold a claim, by unique bus name, bounded so that
/// callers cannot make the service hold an unbounded set: at most
/// `maximumCount` claims in all, and at most `maximumPerUser` from the
/// connections of any one user, so that one process opening many
/// connections cannot lock every other user out.
struct ClaimSet {
    /// What a Claim call did.
    enum Outcome: Equatable {
        case added
        case alreadyHeld
        /// Every claim is taken.
        case full
        /// The caller's user holds `maximumPerUser` claims already.
        case userFull
    }

    let maximumCount: Int
    let maximumPerUser: Int
    /// Each claimant's user (nil when the bus would not say).
    private(set) var users: [String: UInt32?] = [:]

    init(maximumCount: Int, maximumPerUser: Int) {
        precondition(maximumCount > 0 && maximumPerUser > 0)
        self.maximumCount = maximumCount
        self.maximumPerUser = maximumPerUser
    }

    var count: Int { users.count }
    var holders: Dictionary<String, UInt32?>.Keys { users.keys }

    /// Adds `client`'s claim (one per client, however often it calls Claim).
    mutating func claim(_ client: String, user: UInt32?) -> Outcome {
        if users[client] != nil { return .alreadyHeld }
        guard users.count < maximumCount else { return .full }
        guard users.values.count(where: { $0 == user }) < maximumPerUser else { return .userFull }
        users[client] = .some(user)
        return .added
    }

    /// Drops `client`'s claim (Release, or it left the bus); true if it had one.
    @discardableResult
    mutating func release(_ client: String) -> Bool {
        users.removeValue(forKey: client) != nil
    }

    mutating func removeAll() { users.removeAll() }
}
