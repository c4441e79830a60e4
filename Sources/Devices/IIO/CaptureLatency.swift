import Motion
/// How late a sample may reach a consumer (`Setting.latency`), and how many
/// buffered scans a capture reads per wake-up to stay within it.
///
/// The reader wakes once per budget and takes what the kernel holds; a
/// scan that arrived just after the previous wake has then waited one
/// budget. N = ⌊rate × budget⌋ is the whole periods within it, the least a
/// wake-up reads and what the kernel's watermark is set to: at 200 Hz,
/// 16 ms reads 3 or 4 scans per wake (62.5 wake-ups a second, no scan more
/// than 16 ms late), at 100 Hz 1 or 2; a budget shorter than one period
/// reads one scan per wake, woken by the data as `perSample` is.
public struct CaptureLatency: Sendable, Equatable {
    /// The budget in seconds; 0 reads one scan per wake.
    public var budgetSeconds: Double

    public init(budgetSeconds: Double) {
        self.budgetSeconds = budgetSeconds
    }

    /// One scan per wake-up, through a blocking one-scan buffer.
    public static let perSample = CaptureLatency(budgetSeconds: 0)

    /// The command line's default budget, in milliseconds: one 60 Hz frame,
    /// the most a knob on a screen can show late (docs/performance.md, "Power").
    public static let defaultMilliseconds = 16.0

    /// The budget while the device is at rest (no state passed the gate for
    /// `restAfterSeconds`) and no consumer needs every sample: 4 wake-ups a
    /// second, and the first movement reaches consumers at most this late.
    /// A pause in use (a hand held still for a moment) stays this quick.
    public static let restBudgetSeconds = 0.25

    /// The budget once the device has lain still for `settledAfterSeconds`
    /// (on a desk, in a bag): 2 wake-ups a second, the first movement at
    /// most this late. On the machine measured a wake-up itself costs
    /// 60–150 µs of CPU (bench/wake-floor.sh), so only fewer wake-ups
    /// keep a still device near 0.04 % of a core (docs/performance.md,
    /// "Power").
    public static let settledBudgetSeconds = 0.5

    /// How long no state may pass the gate, in the samples' time, before the
    /// capture counts the device as at rest.
    public static let restAfterSeconds = 1.0

    /// How long no state may pass the gate before the device counts as
    /// settled (`settledBudgetSeconds`).
    public static let settledAfterSeconds = 10.0

    /// The budget at rest after `stillNanoseconds` without a state passing
    /// the gate: nil before `restAfterSeconds` (moving), then
    /// `restBudgetSeconds`, then `settledBudgetSeconds`.
    public static func restBudgetSeconds(stillNanoseconds: Int64) -> Double? {
        if stillNanoseconds >= Int64(settledAfterSeconds * 1e9) { return settledBudgetSeconds }
        if stillNanoseconds >= Int64(restAfterSeconds * 1e9) { return restBudgetSeconds }
        return nil
    }

    /// The most scans read per wake-up, whatever the budget and the rate.
    public static let maximumScansPerWake = 256

    /// The most `Setting.latency` accepts, in milliseconds.
    public static let maximumMilliseconds = 1000.0

    /// The scans read per wake-up at `rateHertz` for `budgetSeconds`: at
    /// least 1, at most `maximumScansPerWake`.
    public static func scansPerWake(rateHertz: Double, budgetSeconds: Double) -> Int {
        guard rateHertz > 0, budgetSeconds > 0, rateHertz.isFinite, budgetSeconds.isFinite else { return 1 }
        // The small epsilon keeps 16 ms × 250 Hz = 4 periods at 4, not 3.999….
        let periods = (rateHertz * budgetSeconds + 1e-9).rounded(.down)
        return Int(min(Double(maximumScansPerWake), max(1, periods)))
    }

    /// The scans read per wake-up at `rateHertz` with this budget.
    public func scansPerWake(rateHertz: Double) -> Int {
        Self.scansPerWake(rateHertz: rateHertz, budgetSeconds: budgetSeconds)
    }

    /// The scans a wake-up reads at `rateHertz` for `budgetSeconds`, as
    /// `list` says it: "1 scan" (woken by each scan), "4 scans" (250 Hz,
    /// 16 ms: a whole number of periods), "3–4 scans" (200 Hz, 16 ms),
    /// "1–2 scans" (100 Hz, 16 ms).
    public static func scansPerWakeText(rateHertz: Double, budgetSeconds: Double) -> String {
        let least = scansPerWake(rateHertz: rateHertz, budgetSeconds: budgetSeconds)
        guard rateHertz * budgetSeconds >= 1, least < maximumScansPerWake else {
            return least == 1 ? "1 scan" : "\(least) scans"
        }
        let most = Int((rateHertz * budgetSeconds - 1e-9).rounded(.up))
        return most > least ? "\(least)–\(most) scans" : least == 1 ? "1 scan" : "\(least) scans"
    }
}
