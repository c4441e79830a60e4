/// A token bucket: at most `burst` messages at once, refilled at
/// `perSecond`; one per connection, so one browser tab (or a script) cannot
/// make the server act on input faster than a hand drags a slider.
struct WebInputRateLimit: Sendable, Equatable {
    /// Tokens added per second.
    let perSecond: Double
    /// The most tokens held (and the longest run of messages at once).
    let burst: Double
    private var tokens: Double
    private var lastSeconds: Double?

    init(perSecond: Double, burst: Int) {
        precondition(perSecond > 0 && burst > 0, "a rate limit needs a positive rate and burst")
        self.perSecond = perSecond
        self.burst = Double(burst)
        tokens = Double(burst)
    }

    /// Takes one token at time `seconds` (any monotonic clock); false when
    /// the bucket is empty.
    mutating func take(atSeconds seconds: Double) -> Bool {
        if let lastSeconds, seconds > lastSeconds {
            tokens = min(burst, tokens + (seconds - lastSeconds) * perSecond)
        }
        lastSeconds = max(lastSeconds ?? seconds, seconds)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
