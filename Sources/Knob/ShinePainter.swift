import Foundation

/// The procedural shine: white, alpha only, a bow-tie of two soft wedges
/// fanning up and down from the knob centre with a thin bright line along
/// the axis.
///
/// Measured on the original's 33×46 px shine over its 48 px knob
/// (reference/mtz/shine@2x.png): alpha is 227/255 ≈ 0.89 on the centre
/// column at every height and falls off linearly with the angle from the
/// vertical, reaching 0 at about 42° (at 13 px above the centre: 0.90 of the
/// peak at 4.4°, 0.52 at 21°, 0.23 at 32°, 0.09 at 38°); the wedges end on a
/// circle of 23 px, 23/24 of the knob radius.
public enum ShinePainter {
    /// Alpha on the axis: 227/255, the original's peak.
    public static let peakAlpha = 227.0 / 255.0
    /// Angle from the vertical at which a wedge's alpha reaches 0, radians.
    public static let wedgeHalfAngle = 42.0 * Double.pi / 180
    /// Subsamples per pixel side for antialiasing (layers are painted once).
    static let subsamples = 4

    /// Half-width of the bright axis line in pixels: half a pixel at @2x
    /// (a 1 px line on the 48 px knob), growing with the knob.
    static func lineHalfWidth(_ geometry: KnobGeometry) -> Double {
        max(0.5, 0.25 * geometry.pixelsPerPoint)
    }

    /// How far past the wedges' nominal edges any alpha can reach, in
    /// pixels: the line's half-width plus a pixel for antialiasing and one
    /// for bilinear sampling.
    static func supportMargin(_ geometry: KnobGeometry) -> Double {
        lineHalfWidth(geometry) + 2
    }

    /// Alpha at one point, `offset` pixels from the knob centre (y down),
    /// without antialiasing.
    @inline(__always)
    static func pointAlpha(_ dx: Double, _ dy: Double, radius: Double, lineHalfWidth: Double) -> Double {
        let rr = dx * dx + dy * dy
        guard rr <= radius * radius else { return 0 }
        if abs(dx) <= lineHalfWidth { return peakAlpha }
        let angle = atan2(abs(dx), abs(dy))  // from the vertical, 0…π/2
        return peakAlpha * max(0, 1 - angle / wedgeHalfAngle)
    }

    /// Antialiased alpha of the pixel whose centre is `(dx, dy)` pixels
    /// from the pivot: the mean of `subsamples²` point samples.
    static func pixelAlpha(_ dx: Double, _ dy: Double, radius: Double, lineHalfWidth: Double) -> Double {
        let n = subsamples
        var sum = 0.0
        for j in 0..<n {
            let sy = dy + (Double(j) + 0.5) / Double(n) - 0.5
            for i in 0..<n {
                let sx = dx + (Double(i) + 0.5) / Double(n) - 0.5
                sum += pointAlpha(sx, sy, radius: radius, lineHalfWidth: lineHalfWidth)
            }
        }
        return sum / Double(n * n)
    }

    /// An alpha plane `side × side` pixels with the pivot at `(pivot, pivot)`
    /// in continuous coordinates, row-major from the top, 0…255.
    static func alphaPlane(_ geometry: KnobGeometry, side: Int, pivot: Double) -> [UInt8] {
        let radius = geometry.shineRadius
        let lhw = lineHalfWidth(geometry)
        let reach = radius + 1
        var plane = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            let dy = Double(y) + 0.5 - pivot
            guard abs(dy) <= reach else { continue }
            for x in 0..<side {
                let dx = Double(x) + 0.5 - pivot
                guard dx * dx + dy * dy <= reach * reach else { continue }
                let a = pixelAlpha(dx, dy, radius: radius, lineHalfWidth: lhw)
                plane[y * side + x] = UInt8((a * 255).rounded())
            }
        }
        return plane
    }

    /// The unrotated shine at opacity 1 as a frame-sized image, centred on
    /// the knob centre: premultiplied white, so R = G = B = A.
    public static func image(_ geometry: KnobGeometry) -> RGBAImage {
        let n = geometry.frameSize
        let plane = alphaPlane(geometry, side: n, pivot: geometry.centre.x)
        var image = RGBAImage(width: n, height: n)
        for (i, a) in plane.enumerated() where a != 0 {
            image.pixels[i * 4] = a
            image.pixels[i * 4 + 1] = a
            image.pixels[i * 4 + 2] = a
            image.pixels[i * 4 + 3] = a
        }
        return image
    }
}
