import Glibc

/// The procedural shine: white, alpha only, a bow-tie of two soft wedges
/// fanning up and down from the knob centre whose bright ridge is a thin
/// vertical line through the centre.
///
/// Measured on the original's 33×46 px shine over its 48 px knob
/// (reference/mtz/shine@2x.png): alpha is 227/255 ≈ 0.89 on the centre
/// column at every height and falls off linearly with the angle from the
/// vertical, reaching 0 at about 42° (13 px above the centre: 0.90 of the
/// peak at 4.4°, 0.52 at 21°, 0.23 at 32°, 0.09 at 38°); the wedges end on a
/// circle of 23 px, 23/24 of the knob radius. So the shine is a radial
/// coverage (the antialiased disc) times an angular profile, and is
/// painted in polar form: per pixel, its angle about the knob centre and its
/// disc coverage. Turning the shine about the centre is then an exact shift
/// of the angle, with no resampling (see `KnobCompositor`).
public enum ShinePainter {
    /// Alpha on the axis: 227/255, the original's peak.
    public static let peakAlpha = 227.0 / 255.0
    /// Angle from the vertical at which a wedge's alpha reaches 0, radians.
    public static let wedgeHalfAngle = 42.0 * Double.pi / 180
    /// Angles are stored in 1/65536 of a turn.
    static let angleUnitsPerTurn = 65536.0
    /// `wedgeHalfAngle` in angle units (7646).
    static let halfAngleUnits = Int32((wedgeHalfAngle / (2 * Double.pi) * angleUnitsPerTurn).rounded())
    /// Subsamples per pixel side for the disc's antialiased edge.
    static let subsamples = 4

    /// Angle units of a rotation in radians, wrapped to one turn.
    @inline(__always)
    static func angleUnits(_ radians: Double) -> Int32 {
        guard radians.isFinite else { return 0 }
        let turns = radians / (2 * Double.pi)
        let wrapped = turns - turns.rounded(.down)  // [0, 1)
        return Int32((wrapped * angleUnitsPerTurn).rounded()) & 0xFFFF
    }

    /// Per frame pixel, the angle of its centre about the knob centre in
    /// 1/65536 turn, measured clockwise on screen from straight up (y down:
    /// up is 0, right is 16384).
    static func angleTable(_ geometry: KnobGeometry) -> [UInt16] {
        let n = geometry.frameSize
        let c = geometry.centre
        var table = [UInt16](repeating: 0, count: n * n)
        for y in 0..<n {
            let dy = Double(y) + 0.5 - c.y
            for x in 0..<n {
                let dx = Double(x) + 0.5 - c.x
                let turns = atan2(dx, -dy) / (2 * Double.pi)
                let wrapped = turns - turns.rounded(.down)
                table[y * n + x] = UInt16(Int((wrapped * angleUnitsPerTurn).rounded()) & 0xFFFF)
            }
        }
        return table
    }

    /// Per frame pixel, the coverage of the shine's disc (radius
    /// `geometry.shineRadius` about the knob centre), antialiased, 0…256.
    static func coverageTable(_ geometry: KnobGeometry) -> [UInt16] {
        let n = geometry.frameSize
        let c = geometry.centre
        let radius = geometry.shineRadius
        let s = subsamples
        var table = [UInt16](repeating: 0, count: n * n)
        for y in 0..<n {
            for x in 0..<n {
                let dx = Double(x) + 0.5 - c.x, dy = Double(y) + 0.5 - c.y
                let r = (dx * dx + dy * dy).squareRoot()
                if r < radius - 1 { table[y * n + x] = 256; continue }
                if r > radius + 1 { continue }
                var inside = 0
                for j in 0..<s {
                    for i in 0..<s {
                        let sx = dx + (Double(i) + 0.5) / Double(s) - 0.5
                        let sy = dy + (Double(j) + 0.5) / Double(s) - 0.5
                        if sx * sx + sy * sy <= radius * radius { inside += 1 }
                    }
                }
                table[y * n + x] = UInt16((Double(inside) * 256 / Double(s * s)).rounded())
            }
        }
        return table
    }

    /// The unturned shine at opacity 1 as a frame-sized image centred on
    /// the knob centre: premultiplied white, so R = G = B = A. The same
    /// arithmetic as the compositor's, so a client that turns this image
    /// about the centre draws what `KnobCompositor` draws.
    public static func image(_ geometry: KnobGeometry) -> RGBAImage {
        let n = geometry.frameSize
        let angles = angleTable(geometry)
        let coverage = coverageTable(geometry)
        let shine = ShineTransform(Shine(rotation: 0, opacity: 1))
        let none = ShineTransform(Shine(rotation: 0, opacity: 0))
        var image = RGBAImage(width: n, height: n)
        for i in 0..<(n * n) {
            // The compositor's arithmetic over a transparent base.
            let t = ShineTransform.transmittance(shine.alpha(angle: angles[i], coverage: coverage[i]),
                                                 none.alpha(angle: angles[i], coverage: coverage[i]))
            let a = ShineTransform.blend(0, ShineTransform.blendFactor(t))
            image.pixels[i * 4] = a
            image.pixels[i * 4 + 1] = a
            image.pixels[i * 4 + 2] = a
            image.pixels[i * 4 + 3] = a
        }
        return image
    }
}
