import Glibc

/// Per frame row, the columns a turned shine can touch: the parts of the
/// row inside the shine's disc and inside either wedge (up or down), widened
/// by a margin. Used by `KnobCompositor` to sample only where alpha may be
/// non-zero; the scalar reference works everywhere, and the tests check the
/// two agree byte for byte.
struct ShineSpans {
    /// Up to two half-open column ranges `[lo, hi)` for a row, clipped to
    /// `0..<width`, in increasing order and disjoint.
    struct Row {
        var count = 0
        var lo0 = 0, hi0 = 0, lo1 = 0, hi1 = 0
    }

    /// One wedge: its unit axis and the inward normals of its two edges.
    struct Wedge {
        var n1: Edge
        var n2: Edge
    }

    /// An edge's inward normal, with `1 / n.x` kept to spare a division per
    /// row (0 when the edge is horizontal).
    struct Edge {
        var n: SIMD2<Double>
        var inverseX: Double
        init(_ n: SIMD2<Double>) {
            self.n = n
            inverseX = abs(n.x) < 1e-12 ? 0 : 1 / n.x
        }
    }

    let wedges: (Wedge, Wedge)
    let centre: SIMD2<Double>
    let radius: Double
    let margin: Double
    let width: Int

    /// - Parameters:
    ///   - rotation: shine rotation in radians, positive clockwise on screen.
    ///   - centre: pivot in frame pixels.
    ///   - radius: disc radius in pixels outside which alpha is 0.
    ///   - halfAngle: wedge half-angle in radians (< π/2).
    ///   - margin: pixels added outside each wedge edge.
    ///   - width: frame width in pixels.
    init(rotation: Double, centre: SIMD2<Double>, radius: Double, halfAngle: Double, margin: Double, width: Int) {
        // Screen rotation, y down: (x, y) → (x cos − y sin, x sin + y cos)
        // turns +x toward +y, clockwise as seen.
        func turned(_ v: SIMD2<Double>, _ a: Double) -> SIMD2<Double> {
            SIMD2(v.x * cos(a) - v.y * sin(a), v.x * sin(a) + v.y * cos(a))
        }
        func wedge(axis: SIMD2<Double>) -> Wedge {
            // Inward normal of an edge: the axis minus its projection on the edge.
            func normal(_ edge: SIMD2<Double>) -> SIMD2<Double> {
                let n = axis - (axis * edge).sum() * edge
                return n / (n * n).sum().squareRoot()
            }
            return Wedge(n1: Edge(normal(turned(axis, halfAngle))), n2: Edge(normal(turned(axis, -halfAngle))))
        }
        let up = turned(SIMD2(0, -1), rotation)
        wedges = (wedge(axis: up), wedge(axis: -up))
        self.centre = centre
        self.radius = radius + margin
        self.margin = margin
        self.width = width
    }

    /// Tightens `[lo, hi]` to the part of row offset `dy` inside one edge,
    /// `n · (dx, dy) ≥ −margin`; false if nothing is left.
    @inline(__always)
    func clip(_ e: Edge, dy: Double, _ lo: inout Double, _ hi: inout Double) -> Bool {
        let rhs = -margin - e.n.y * dy
        if e.inverseX == 0 { return rhs <= 0 }
        if e.inverseX > 0 { lo = max(lo, rhs * e.inverseX) } else { hi = min(hi, rhs * e.inverseX) }
        return lo <= hi
    }

    /// The `dx` interval (from the centre) where row offset `dy` meets one
    /// wedge widened by the margin, within `[-half, half]`; nil if empty.
    @inline(__always)
    func interval(_ w: Wedge, dy: Double, half: Double) -> (Double, Double)? {
        var lo = -half, hi = half
        guard clip(w.n1, dy: dy, &lo, &hi), clip(w.n2, dy: dy, &lo, &hi) else { return nil }
        return (lo, hi)
    }

    /// Whole columns whose centres `x + 0.5` can lie in `[lo, hi]` (offsets
    /// from the centre), clipped to the frame; nil if none.
    @inline(__always)
    func columns(_ lo: Double, _ hi: Double) -> (Int, Int)? {
        let a = max(0, Int((centre.x + lo - 0.5).rounded(.down)))
        let b = min(width, Int((centre.x + hi - 0.5).rounded(.up)) + 1)
        return a < b ? (a, b) : nil
    }

    /// The columns of row `y` (pixel centres at `y + 0.5`) that may be touched.
    func row(_ y: Int) -> Row {
        var out = Row()
        let dy = Double(y) + 0.5 - centre.y
        let rr = radius * radius - dy * dy
        guard rr > 0 else { return out }
        let half = rr.squareRoot()
        var first = interval(wedges.0, dy: dy, half: half).flatMap { columns($0.0, $0.1) }
        var second = interval(wedges.1, dy: dy, half: half).flatMap { columns($0.0, $0.1) }
        if let a = first, let b = second, b.0 < a.0 { (first, second) = (b, a) }
        if first == nil { (first, second) = (second, nil) }
        guard let a = first else { return out }
        out.count = 1
        (out.lo0, out.hi0) = a
        if let b = second {
            if b.0 <= a.1 {
                out.hi0 = max(a.1, b.1)
            } else {
                out.count = 2
                (out.lo1, out.hi1) = b
            }
        }
        return out
    }
}
