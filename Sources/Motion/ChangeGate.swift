/// Drops states that moved too little to be seen.
///
/// Intended semantics of MTZTiltReflectionSlider's gate (SPEC §1): accept a
/// state when |Δroll| ≥ t **or** |Δpitch| ≥ t, compared with the last
/// *accepted* state; the first state is always accepted. The original
/// tested `|Δroll| < t || |Δpitch| < t` to drop, so a motion along only one
/// axis never passed; tiltd implements what its author meant.
public struct ChangeGate: Sendable {
    /// The original's threshold, 0.0022 rad (1 / (3·π·48), rounded).
    public static let defaultThreshold = 0.0022

    /// The threshold that makes a third of a pixel at the rim of a knob of
    /// radius `knobRadiusPixels`: a rotation Δ moves a rim point by r·Δ px,
    /// so Δ = 1 / (3·r) radians.
    public static func threshold(knobRadiusPixels: Double) -> Double {
        1 / (3 * knobRadiusPixels)
    }

    /// The threshold in radians.
    public let threshold: Double
    @usableFromInline var lastRoll = 0.0
    @usableFromInline var lastPitch = 0.0
    @usableFromInline var hasAccepted = false

    /// - Parameter threshold: radians (≥ 0).
    public init(threshold: Double = ChangeGate.defaultThreshold) {
        self.threshold = threshold
    }

    /// Whether to pass a state; remembers it when it passes.
    @inlinable @inline(__always)
    public mutating func accept(roll: Double, pitch: Double) -> Bool {
        if hasAccepted, abs(roll - lastRoll) < threshold, abs(pitch - lastPitch) < threshold {
            return false
        }
        hasAccepted = true
        lastRoll = roll
        lastPitch = pitch
        return true
    }
}
