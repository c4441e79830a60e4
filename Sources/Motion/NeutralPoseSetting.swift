/// Which attitude counts as rest (roll 0, pitch 0).
public enum NeutralPoseSetting: Sendable, Equatable {
    /// Flat face up is rest (CoreMotion's reference).
    case none
    /// The mean direction of the first 0.5 s becomes rest.
    case auto
    /// The given attitude (radians, screen frame) is rest.
    case fixed(roll: Double, pitch: Double)
}
