/// atan2 without a libm call, for the per-sample attitude.
///
/// Why: glibc's `atan2` costs about 150 instructions a call (its `asin`
/// about 60), including a save and restore of the SSE rounding mode: with
/// libm, the angles would take about 40 % of the pipeline's time.
///
/// How: with a = |y|, b = |x|, t = min(a, b) / max(a, b) ∈ [0, 1]. The
/// nearest sixteenth c = k/16 gives atan(t) = atan(c) + atan(u) with
/// u = (t − c) / (1 + t·c) (the tangent subtraction formula), |u| ≤ 1/32.
/// atan(c) comes from a table (a double plus its rounding error) and
/// atan(u) from its Taylor series u − u³/3 + … − u¹¹/11, whose first
/// dropped term is below u·2⁻⁶⁰. The octant then gives
/// atan2 = offset ± atan(t) with offset 0, π/2 or π, chosen without
/// branches (the octant changes often when a device sits near 45°).
///
/// Accuracy: within 2 ulp of glibc's (tested against `Glibc.atan2` on a
/// dense grid and random vectors), and the replay of every recording is
/// byte-identical to the libm version (tested).
@usableFromInline
enum Arctangent {
    /// atan2(y, x) in radians, in [−π, π]; y and x finite, not both zero
    /// (the attitude solver guarantees both).
    @inlinable @inline(__always)
    static func atan2(_ y: Double, _ x: Double) -> Double {
        let a = abs(y), b = abs(x)
        let steep = a > b
        let t = min(a, b) / max(a, b)
        // The nearest sixteenth by the 1.5·2⁵² trick: adding and
        // subtracting it rounds t·16 (exact) to an integer in two additions,
        // and the sum's low mantissa bits hold that integer (0…16) as the
        // table index. Shorter latency than a round trip through Int.
        let shifted = t * 16 + magic
        let k = Int(truncatingIfNeeded: shifted.bitPattern & 31)
        let c = (shifted - magic) * 0.0625  // exact
        // t − c is exact (Sterbenz: t lies within [c/2, 2c] for k ≥ 1).
        let u = (t - c) / (1 + t * c)
        // u − u³/3 + u⁵/5 − u⁷/7 + u⁹/9 − u¹¹/11, with the polynomial in
        // s = u² evaluated in Estrin's scheme (independent halves) to
        // shorten the dependency chain that each sample waits on.
        let s = u * u
        let s2 = s * s
        let q = ((-1.0 / 3 + s * (1.0 / 5)) + s2 * (-1.0 / 7 + s * (1.0 / 9))) + (s2 * s2) * (-1.0 / 11)
        let series = u + (u * s) * q
        // Octants: b ≥ a, x ≥ 0: atan t; steep, x ≥ 0: π/2 − atan t;
        // b ≥ a, x < 0: π − atan t; steep, x < 0: π/2 + atan t.
        let negativeX = x.sign == .minus
        let sign: Double = steep == negativeX ? 1 : -1
        let offsetHigh = steep ? halfPiHigh : (negativeX ? piHigh : 0)
        let offsetLow = steep ? halfPiLow : (negativeX ? piLow : 0)
        let angle = (offsetHigh + sign * sixteenthsHigh[k]) + (offsetLow + sign * (sixteenthsLow[k] + series))
        return Double(signOf: y, magnitudeOf: angle)
    }

    /// atan(k/16) for k = 0…16 rounded to a double, and what that rounding
    /// left out (computed with 200-bit arithmetic, mpmath).
    @usableFromInline static let sixteenthsHigh: [Double] = [
        0.0, 0.06241880999595735, 0.12435499454676144, 0.18534794999569476, 0.24497866312686414,
        0.3028848683749714, 0.35877067027057225, 0.4124104415973873, 0.4636476090008061,
        0.5123894603107377, 0.5585993153435624, 0.6022873461349642, 0.6435011087932844,
        0.6823165548747481, 0.7188299996216245, 0.7531512809621944, 0.7853981633974483
    ]
    @usableFromInline static let sixteenthsLow: [Double] = [
        0.0, -1.5490756308295046e-18, -3.1253241424539383e-18, 4.180692268843079e-18,
        1.0698755618734451e-17, -1.1010827903001369e-17, -2.4623815582638635e-17,
        -1.587652227770689e-17, 2.2698777452961687e-17, -2.5462781472855804e-17,
        -5.4556305485916264e-18, 2.950430737228402e-17, 1.5834785051444286e-17,
        6.943223671560008e-18, -2.1478388444456983e-17, -2.4256934659182068e-17,
        3.061616997868383e-17
    ]

    /// 1.5·2⁵²: x + magic − magic rounds |x| < 2⁵¹ to an integer.
    @inlinable static var magic: Double { 6_755_399_441_055_744.0 }
    /// π/2 as a double and the remainder below its last bit.
    @inlinable static var halfPiHigh: Double { 1.5707963267948966 }
    @inlinable static var halfPiLow: Double { 6.123233995736766e-17 }
    /// π as a double and the remainder below its last bit.
    @inlinable static var piHigh: Double { 3.141592653589793 }
    @inlinable static var piLow: Double { 1.2246467991473532e-16 }
}
