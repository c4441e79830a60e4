/// A CSS / Core Animation timing function: a cubic Bézier from (0, 0) to
/// (1, 1) with control points (x1, y1) and (x2, y2), mapping elapsed time
/// (x, 0…1) to progress (y).
public struct TimingCurve: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "timing curve x control points must be in 0…1")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// Core Animation's `kCAMediaTimingFunctionEaseInEaseOut`,
    /// (0.42, 0, 0.58, 1), the same as CSS `ease-in-out` and the curve UIView
    /// block animations use by default.
    public static let easeInEaseOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// CSS `ease-out`, (0, 0, 0.58, 1): fast at first, settling gently;
    /// LARSBar's light fades (CONTROLS.md §1).
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// Constant speed.
    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    @inline(__always)
    private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        // B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    /// Progress (0…1 for these curves) at elapsed fraction `x`, clamped to
    /// [0, 1]. Solves x(t) = x by bisection (monotone since x1, x2 ∈ [0, 1]),
    /// 40 halvings: fixed work, so the answer is the same on every run.
    public func progress(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if Self.bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return Self.bezier((lo + hi) / 2, y1, y2)
    }
}
