import Knob

/// One light's displayed lit level σ (0 dark … 1 fully lit) and its fade
/// toward a target (CONTROLS.md §1).
///
/// When the target flips, σ runs from the value on screen at that moment
/// to the target over 0.1 s along CSS `ease-out`, (0, 0, 0.58, 1), as
/// LARSBar's Core Animation fade did; setting the same target again does
/// not restart the fade. Times are explicit seconds on any one clock.
public struct EQLightFade: Sendable, Equatable {
    /// How long a fade lasts.
    public static let durationSeconds = 0.1
    /// The fade's curve.
    public static let curve = TimingCurve.easeOut

    /// Where the running fade started.
    public private(set) var startLevel: Double
    /// Where it ends: 1 lit, 0 dark.
    public private(set) var target: Double
    /// When it started, seconds.
    public private(set) var startSeconds: Double

    /// A light resting at `level` (a still: no fade running).
    public init(settledAt level: Double) {
        startLevel = level
        target = level
        startSeconds = -Double.infinity
    }

    /// σ at time `seconds`.
    public func level(atSeconds seconds: Double) -> Double {
        if startLevel == target { return target }
        let progress = Self.curve.progress((seconds - startSeconds) / Self.durationSeconds)
        return startLevel + (target - startLevel) * progress
    }

    /// Aims the light at lit or dark from time `seconds`; a new target
    /// starts a fade from what is shown then, the same target changes nothing.
    public mutating func aim(lit: Bool, atSeconds seconds: Double) {
        let newTarget = lit ? 1.0 : 0.0
        guard newTarget != target else { return }
        startLevel = level(atSeconds: seconds)
        target = newTarget
        startSeconds = seconds
    }
}
