import Glibc

/// Roll and pitch from a gravity vector, continuous from sample to sample.
///
/// SPEC §3 / CoreMotion convention on a vector already in the screen frame
/// (upright reads (0, −g, 0), face up z > 0), with n = v / |v|:
/// pitch = asin(−ny), roll = atan2(nx, nz), computed per sample as
/// atan2(−y, √(x² + z²)) and atan2(x, z) with `Arctangent` (no libm call).
/// Flat face up is (0, 0),
/// upright is pitch +π/2, left edge up is roll > 0.
///
/// Continuity: (roll, pitch), (roll + 2πk, pitch + 2πm) and
/// (roll + π, π − pitch) describe the same attitude. The first state uses
/// the principal values (|pitch| ≤ π/2); each later one picks, among these,
/// the pair nearest the previous state (squared distance in radians), so a
/// slow sweep over the top or through face-down never jumps and the angles
/// may leave (−π, π]. Where √(nx² + nz²) < `rollDefinedThreshold`
/// (within about 1.7° of upright or upside-down) roll is not defined by the
/// vector and the previous roll is held (0 if there is none); pitch still
/// follows. A zero or non-finite vector holds both angles.
public struct AttitudeSolver: Sendable {
    /// Below this √(nx² + nz²), roll is held.
    public static let rollDefinedThreshold = 0.03

    /// The last roll in radians.
    public var roll: Double { lastRoll }
    /// The last pitch in radians.
    public var pitch: Double { lastPitch }

    @usableFromInline var lastRoll = 0.0
    @usableFromInline var lastPitch = 0.0
    @usableFromInline var hasPrevious = false

    public init() {}

    /// The principal (roll, pitch) of `v` without continuity; roll is 0 where
    /// undefined. Used for rest poses.
    public static func principalAngles(_ v: SIMD3<Double>) -> (roll: Double, pitch: Double) {
        let length = (v * v).sum().squareRoot()
        guard length > 0, length.isFinite else { return (0, 0) }
        let n = v / length
        let pitch = Glibc.asin(min(max(-n.y, -1), 1))
        let rollDefined = n.x * n.x + n.z * n.z >= rollDefinedThreshold * rollDefinedThreshold
        return (rollDefined ? Glibc.atan2(n.x, n.z) : 0, pitch)
    }

    /// Solves one vector and remembers the result.
    @inlinable @inline(__always)
    public mutating func solve(_ v: SIMD3<Double>) -> (roll: Double, pitch: Double) {
        let horizontal = v.x * v.x + v.z * v.z
        let squared = horizontal + v.y * v.y
        guard squared > 0, squared.isFinite else { return (lastRoll, lastPitch) }
        let rollDefined = horizontal >= AttitudeSolver.rollDefinedThreshold * AttitudeSolver.rollDefinedThreshold * squared
        // asin(−ny) = atan2(−y, √(x² + z²)): one square root and no
        // division or asin; `Arctangent` spares both libm calls.
        let roll0 = rollDefined ? Arctangent.atan2(v.x, v.z) : 0
        let pitch0 = Arctangent.atan2(-v.y, horizontal.squareRoot())
        guard hasPrevious else {
            hasPrevious = true
            lastRoll = roll0
            lastPitch = pitch0
            return (lastRoll, lastPitch)
        }
        // Branch 1 (principal pitch), unwrapped next to the last state.
        let p1 = lastPitch + AttitudeSolver.wrap(pitch0 - lastPitch)
        if !rollDefined {
            // Both branches give nearly the same pitch here; pick the one
            // whose horizontal direction agrees with the held roll
            // ((nx, nz) = cos(pitch)·(sin roll, cos roll)), so the pitch
            // keeps going instead of folding back at upright.
            let along = v.x * Glibc.sin(lastRoll) + v.z * Glibc.cos(lastRoll)
            lastPitch = along >= 0 ? p1 : lastPitch + AttitudeSolver.wrap(Double.pi - pitch0 - lastPitch)
            return (lastRoll, lastPitch)
        }
        let r1 = lastRoll + AttitudeSolver.wrap(roll0 - lastRoll)
        let d1 = (r1 - lastRoll) * (r1 - lastRoll) + (p1 - lastPitch) * (p1 - lastPitch)
        // Branch 2's roll lies π − |Δroll₁| away, so when d1 < 1 its
        // distance is at least (π − 1)² > 1: no need to compute it.
        if d1 < 1 {
            lastRoll = r1
            lastPitch = p1
            return (lastRoll, lastPitch)
        }
        let r2 = lastRoll + AttitudeSolver.wrap(roll0 + Double.pi - lastRoll)
        let p2 = lastPitch + AttitudeSolver.wrap(Double.pi - pitch0 - lastPitch)
        let d2 = (r2 - lastRoll) * (r2 - lastRoll) + (p2 - lastPitch) * (p2 - lastPitch)
        if d1 <= d2 {
            lastRoll = r1
            lastPitch = p1
        } else {
            lastRoll = r2
            lastPitch = p2
        }
        return (lastRoll, lastPitch)
    }

    /// `angle` reduced to [−π, π] (nearest multiple of 2π removed).
    ///
    /// Rounds with the 1.5·2⁵² trick: adding and subtracting it leaves the
    /// nearest integer for |x| < 2⁵¹, in two additions. `rounded()` would
    /// call libm's `rint` on CPUs without SSE4.1, the baseline for x86-64.
    @inlinable @inline(__always)
    static func wrap(_ angle: Double) -> Double {
        // Nearly always already in range: a predictable branch beats the arithmetic.
        if abs(angle) <= Double.pi { return angle }
        let magic = 6_755_399_441_055_744.0  // 1.5 · 2⁵²
        let turns = angle * (0.5 / Double.pi)
        guard abs(turns) < 1e15 else { return angle.remainder(dividingBy: 2 * Double.pi) }
        let rounded = (turns + magic) - magic
        return angle - rounded * (2 * Double.pi)
    }
}
