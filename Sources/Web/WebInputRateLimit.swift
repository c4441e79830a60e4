import Synchronization

/// A token bucket: at most `burst` messages at once, refilled at
/// `perSecond`. One per connection, so one browser tab (or a script) cannot
/// make the server act on input faster than a hand drags a slider; and one
/// for every connection together, so opening more connections does not make
/// the server act faster either (each volume message is a call to the audio
/// server, each ring press can start a file).
final class WebInputRateLimit: Sendable {
    /// Tokens added per second.
    let perSecond: Double
    /// The most tokens held (and the longest run of messages at once).
    let burst: Double
    private let bucket: Mutex<(tokens: Double, lastSeconds: Double?)>
    private let start = ContinuousClock.now

    init(perSecond: Double, burst: Int) {
        precondition(perSecond > 0 && burst > 0, "a rate limit needs a positive rate and burst")
        self.perSecond = perSecond
        self.burst = Double(burst)
        bucket = Mutex((Double(burst), nil))
    }

    /// Takes one token now; false when the bucket is empty.
    func take() -> Bool { take(atSeconds: (ContinuousClock.now - start) / .seconds(1)) }

    /// Takes one token at time `seconds` (any monotonic clock); false when
    /// the bucket is empty.
    func take(atSeconds seconds: Double) -> Bool {
        bucket.withLock { bucket in
            if let lastSeconds = bucket.lastSeconds, seconds > lastSeconds {
                bucket.tokens = min(burst, bucket.tokens + (seconds - lastSeconds) * perSecond)
            }
            bucket.lastSeconds = max(bucket.lastSeconds ?? seconds, seconds)
            guard bucket.tokens >= 1 else { return false }
            bucket.tokens -= 1
            return true
        }
    }
}
