import Glibc

/// The discrete screen orientation exactly as iio-sensor-proxy decides it
/// (`orientation_calc`, SPEC §5).
///
/// Readings are first scaled so that 1 g = 256 and truncated to integers
/// (iio-sensor-proxy: `(int)(value · scale · 256 / 9.81)`; our input is
/// already value · scale in m/s²). Then
/// portrait = round(atan2(x, √(y²+z²))) and
/// landscape = round(atan2(y, √(x²+z²))) in whole degrees;
/// both beyond ±35 → keep the previous; |portrait| > 35 → left-up if
/// positive else right-up; else |landscape| > 35 → bottom-up if positive
/// else normal; else keep the previous (`nil`, "undefined", until the first
/// decision). iio-sensor-proxy's 5° same-axis test sits inside the
/// > 35 branch and can never fire, so it is left out.
///
/// The per-sample path avoids atan2: round(d) > 35 exactly when d ≥ 35.5
/// (C `round` rounds halves away from zero), and for s ≥ 0
/// |atan2(x, s)| ≥ 35.5° ⇔ x ≠ 0 and x² ≥ tan²(35.5°)·s². `reference`
/// keeps the literal formula; a test checks both agree.
public struct OrientationClassifier: Sendable {
    /// iio-sensor-proxy's THRESHOLD_PORTRAIT and THRESHOLD_LANDSCAPE, degrees.
    public static let thresholdDegrees = 35
    /// tan²(35.5°): the squared slope where the rounded angle passes 35°.
    /// (A literal so the hot path needs no lazy initialisation; a test
    /// checks it against `tan`.)
    @inlinable static var thresholdSlopeSquared: Double { 0.5087870007099218 }
    /// m/s² to iio-sensor-proxy's units (1 g = 256, g taken as 9.81).
    @inlinable static var unitsPerMetrePerSecondSquared: Double { 256.0 / 9.81 }

    /// The last decision; `nil` until the first one.
    public var orientation: ScreenOrientation? { current }

    @usableFromInline var current: ScreenOrientation?

    /// - Parameter initial: the orientation before any sample (`nil`: undefined).
    public init(initial: ScreenOrientation? = nil) {
        current = initial
    }

    /// Classifies one acceleration vector (m/s², device frame) and returns
    /// the orientation now in force.
    @inlinable @inline(__always)
    public mutating func update(_ acceleration: SIMD3<Double>) -> ScreenOrientation? {
        // (int) truncation as in iio-sensor-proxy, via Int64 conversions
        // (cvttsd2si) rather than libm's trunc; clamped only in the rare
        // case a component could overflow Int64.
        let scaled = acceleration * OrientationClassifier.unitsPerMetrePerSecondSquared
        let truncated: SIMD3<Double>
        if abs(scaled.x) < 1e15 && abs(scaled.y) < 1e15 && abs(scaled.z) < 1e15 {
            truncated = SIMD3(Double(Int64(scaled.x)), Double(Int64(scaled.y)), Double(Int64(scaled.z)))
        } else {
            truncated = SIMD3(OrientationClassifier.truncate(scaled.x), OrientationClassifier.truncate(scaled.y),
                              OrientationClassifier.truncate(scaled.z))
        }
        current = OrientationClassifier.decide(truncated, previous: current)
        return current
    }

    /// C's `(int)` conversion: toward zero (clamped far beyond any reading;
    /// NaN never reaches here, the pipeline skips non-finite readings).
    @usableFromInline
    static func truncate(_ value: Double) -> Double {
        Double(Int64(min(max(value, -1e15), 1e15)))
    }

    /// The fast decision on an already scaled and truncated vector.
    @inlinable @inline(__always)
    public static func decide(_ v: SIMD3<Double>, previous: ScreenOrientation?) -> ScreenOrientation? {
        let xx = v.x * v.x, yy = v.y * v.y, zz = v.z * v.z
        let portraitOver = v.x != 0 && xx >= thresholdSlopeSquared * (yy + zz)
        let landscapeOver = v.y != 0 && yy >= thresholdSlopeSquared * (xx + zz)
        if portraitOver && landscapeOver { return previous }
        if portraitOver { return v.x > 0 ? .leftUp : .rightUp }
        if landscapeOver { return v.y > 0 ? .bottomUp : .normal }
        return previous
    }

    /// iio-sensor-proxy's formula, literally, on integer readings in its
    /// units (1 g = 256). Kept as the reference the fast path is tested against.
    public static func reference(x: Int, y: Int, z: Int, previous: ScreenOrientation?) -> ScreenOrientation? {
        let degreesPerRadian = 180 / Double.pi
        let portrait = Int((Glibc.atan2(Double(x), Double(y * y + z * z).squareRoot()) * degreesPerRadian)
            .rounded(.toNearestOrAwayFromZero))
        let landscape = Int((Glibc.atan2(Double(y), Double(x * x + z * z).squareRoot()) * degreesPerRadian)
            .rounded(.toNearestOrAwayFromZero))
        if abs(portrait) > thresholdDegrees && abs(landscape) > thresholdDegrees { return previous }
        if abs(portrait) > thresholdDegrees { return portrait > 0 ? .leftUp : .rightUp }
        if abs(landscape) > thresholdDegrees { return landscape > 0 ? .bottomUp : .normal }
        return previous
    }
}
