import Glibc

/// Measures attitude from a chosen rest pose instead of flat face up.
///
/// A laptop lid works near upright, exactly where roll is ill-conditioned
/// (SPEC §3). Rotating each vector so that the rest pose reads face up
/// moves that singularity 90° away. For a rest pose (roll r, pitch p) the
/// gravity direction is n = Ry(r)·Rx(p)·ẑ = (cos p sin r, −sin p, cos p cos r),
/// so the correction is N = Rx(−p)·Ry(−r), which maps n to ẑ; a pure pitch
/// or pure roll pose is undone by a single rotation about one axis.
///
/// `.auto` sums the unit vectors of the first 0.5 s (from the first
/// sample's timestamp); while it collects, states are measured from the mean
/// so far (so they read near 0), and then the pose is frozen.
public struct NeutralPose: Sendable {
    /// How long `.auto` collects, in ns.
    public static let autoWindowNanoseconds: Int64 = 500_000_000

    /// The rest pose in force (radians), nil for `.none`.
    public var restPose: (roll: Double, pitch: Double)? { rest }
    /// Whether the rest pose is final (always true except during `.auto`'s window).
    public var isSettled: Bool { !collecting }

    @usableFromInline let enabled: Bool
    @usableFromInline var collecting: Bool
    @usableFromInline var rest: (roll: Double, pitch: Double)?
    @usableFromInline var row0 = SIMD3<Double>(1, 0, 0)
    @usableFromInline var row1 = SIMD3<Double>(0, 1, 0)
    @usableFromInline var row2 = SIMD3<Double>(0, 0, 1)
    @usableFromInline var sum = SIMD3<Double>()
    @usableFromInline var startNanoseconds: Int64 = 0
    @usableFromInline var started = false

    public init(setting: NeutralPoseSetting) {
        switch setting {
        case .none:
            enabled = false
            collecting = false
        case .auto:
            enabled = true
            collecting = true
        case .fixed(let roll, let pitch):
            enabled = true
            collecting = false
            setRest(roll: roll, pitch: pitch)
        }
    }

    /// The correction rotation's rows for a rest pose (radians).
    public static func rotation(roll: Double, pitch: Double)
        -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let cr = Glibc.cos(roll), sr = Glibc.sin(roll)
        let cp = Glibc.cos(pitch), sp = Glibc.sin(pitch)
        return (SIMD3(cr, 0, -sr), SIMD3(sp * sr, cp, sp * cr), SIMD3(cp * sr, -sp, cp * cr))
    }

    /// `v` rotated so that the rest pose reads face up.
    @inlinable @inline(__always)
    public mutating func apply(_ v: SIMD3<Double>, timestampNanoseconds: Int64) -> SIMD3<Double> {
        guard enabled else { return v }
        if collecting { collect(v, timestampNanoseconds: timestampNanoseconds) }
        return SIMD3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
    }

    @usableFromInline
    mutating func collect(_ v: SIMD3<Double>, timestampNanoseconds: Int64) {
        if !started {
            started = true
            startNanoseconds = timestampNanoseconds
        } else if Nanoseconds.difference(timestampNanoseconds, startNanoseconds) >= NeutralPose.autoWindowNanoseconds {
            collecting = false
            return
        }
        let length = (v * v).sum().squareRoot()
        guard length > 0, length.isFinite else { return }
        sum += v / length
        let angles = AttitudeSolver.principalAngles(sum)
        setRest(roll: angles.roll, pitch: angles.pitch)
    }

    @usableFromInline
    mutating func setRest(roll: Double, pitch: Double) {
        rest = (roll, pitch)
        (row0, row1, row2) = NeutralPose.rotation(roll: roll, pitch: pitch)
    }
}
