import Synchronization

/// One token bucket for the input of every connection together
/// (`WebInputRateLimit`), beside each connection's own: opening more
/// connections does not make the server act faster (each volume message is
/// a call to the audio server, each ring press can start a file).
///
/// A message over this limit is refused with `{"error":"…"}` and the
/// connection stays open: the sender may not be the one flooding.
final class WebInputSharedLimit: Sendable {
    private let bucket: Mutex<WebInputRateLimit>
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init(perSecond: Double, burst: Int) {
        bucket = Mutex(WebInputRateLimit(perSecond: perSecond, burst: burst))
        start = clock.now
    }

    /// Messages per second, on average, from all connections together.
    var perSecond: Double { bucket.withLock { $0.perSecond } }

    /// Takes one token now; false when the bucket is empty.
    func take() -> Bool {
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return bucket.withLock { $0.take(atSeconds: seconds) }
    }
}
