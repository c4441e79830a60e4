import Glibc

/// The TLTiltSlider knob (Teehan+Lax), redrawn from roll and pitch on every
/// frame: the per-frame-redraw baseline that layered compositing must beat.
///
/// SPEC §2, per pixel of a 24×24 greyscale bitmap (x, y in 0…23):
/// `adj = x − 12` (0 becomes 0.001), `opp = y − 12`, `angle = atan(opp/adj)`
/// (atan, not atan2, hence the pinwheel), `k = 1.5 + 0.5·cos(2·roll)`,
/// `v = 127 + trunc(|cos(angle·k + 2·pitch)|·128)`; then with
/// `d = √((opp+0.5)² + (adj+0.5)²)`, if `lrint(d)` is even,
/// `v −= 20·|round(d) − d|`, stored by truncation. At other sizes the same
/// formula runs on the 24-pixel grid scaled to the knob, so rings and
/// pinwheel keep their proportions. The bitmap is clipped to the knob's
/// circle (antialiased) over a 30% black soft shadow.
///
/// Everything that depends on motion (the formula) is recomputed per frame,
/// as the original did; the circle's coverage and the shadow do not change
/// and are computed once.
public struct TLTiltRenderer: Sendable {
    public let geometry: KnobGeometry
    /// Side of the raw bitmap in pixels: the knob diameter rounded up to
    /// the frame size's parity, so the bitmap is centred on the knob and
    /// covers every pixel the circle touches. (Rounding to nearest left the
    /// right and bottom rim outside the bitmap, drawn black, whenever the
    /// diameter's fraction was below one half: 200, 256, 300, 512 px.)
    public let bitmapSize: Int
    /// Top-left of the raw bitmap in the frame, pixels.
    let origin: Int
    /// Per frame pixel: knob coverage 0…255 (the circle clip).
    let coverage: [UInt8]
    /// Per frame pixel: the frame with the shadow alone, premultiplied
    /// alpha 0…255 (black, so colour channels are 0).
    let shadowAlpha: [UInt8]

    /// Shadow opacity: TLTiltSlider draws its knob over 30% black.
    static let shadowOpacity = 0.3

    public init(geometry: KnobGeometry) {
        self.geometry = geometry
        let n = geometry.frameSize
        var side = max(1, Int(geometry.knobDiameter.rounded(.up)))
        if (n - side) % 2 != 0 { side += 1 }
        bitmapSize = side
        origin = (n - side) / 2
        let c = geometry.centre
        let radius = geometry.knobRadius
        let sigma = KnobBasePainter.shadowSigmaPoints * geometry.pixelsPerPoint
        let shadowY = c.y + KnobBasePainter.shadowOffsetPoints * geometry.pixelsPerPoint
        var coverage = [UInt8](repeating: 0, count: n * n)
        var shadow = [UInt8](repeating: 0, count: n * n)
        let s = 4
        for y in 0..<n {
            for x in 0..<n {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                var inside = 0
                for j in 0..<s {
                    for i in 0..<s {
                        let dx = px + (Double(i) + 0.5) / Double(s) - 0.5 - c.x
                        let dy = py + (Double(j) + 0.5) / Double(s) - 0.5 - c.y
                        if dx * dx + dy * dy <= radius * radius { inside += 1 }
                    }
                }
                coverage[y * n + x] = UInt8((Double(inside) * 255 / Double(s * s)).rounded())
                let sd = ((px - c.x) * (px - c.x) + (py - shadowY) * (py - shadowY)).squareRoot()
                let a = Self.shadowOpacity * 0.5 * erfc((sd - radius) / (sigma * 2.0.squareRoot()))
                shadow[y * n + x] = UInt8((a * 255).rounded())
            }
        }
        self.coverage = coverage
        self.shadowAlpha = shadow
    }

    /// TLTiltSlider's raw grey level for bitmap pixel `(x, y)` on a bitmap
    /// of `size` pixels (24 in the original).
    /// - Parameters:
    ///   - roll: roll in radians.
    ///   - pitch: pitch in radians.
    @inline(__always)
    public static func rawValue(x: Int, y: Int, size: Int, roll: Double, pitch: Double) -> UInt8 {
        let unit = 24 / Double(size)  // bitmap pixels to the original's grid
        let half = Double(size) / 2
        var adj = (Double(x) - half) * unit
        if adj == 0 { adj = 0.001 }
        let opp = (Double(y) - half) * unit
        let angle = atan(opp / adj)
        let k = 1.5 + 0.5 * cos(2 * roll)
        var v = 127 + (abs(cos(angle * k + 2 * pitch)) * 128).rounded(.towardZero)
        let d = ((opp + 0.5) * (opp + 0.5) + (adj + 0.5) * (adj + 0.5)).squareRoot()
        // lrint rounds half to even; round() rounds half away from zero.
        if Int(d.rounded(.toNearestOrEven)) % 2 == 0 {
            v -= 20 * abs(d.rounded(.toNearestOrAwayFromZero) - d)
        }
        return UInt8(max(0, min(255, v)).rounded(.towardZero))
    }

    /// The raw `size × size` bitmap, row-major from the top, before the clip.
    public static func rawBitmap(size: Int, roll: Double, pitch: Double) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                out[y * size + x] = rawValue(x: x, y: y, size: size, roll: roll, pitch: pitch)
            }
        }
        return out
    }

    /// Draws one frame: the bitmap for this roll and pitch, clipped to the
    /// circle, over the shadow. Overwrites every pixel of `frame`.
    /// - Parameters:
    ///   - roll: roll in radians.
    ///   - pitch: pitch in radians.
    ///   - frame: a `frameSize²` image.
    public func render(roll: Double, pitch: Double, into frame: inout RGBAImage) {
        let n = geometry.frameSize
        precondition(frame.width == n && frame.height == n, "frame must be \(n)×\(n)")
        let size = bitmapSize
        let o = origin
        frame.pixels.withUnsafeMutableBufferPointer { out in
            coverage.withUnsafeBufferPointer { cov in
                shadowAlpha.withUnsafeBufferPointer { sh in
                    for y in 0..<n {
                        for x in 0..<n {
                            let p = y * n + x
                            let c = UInt32(cov[p])
                            var grey: UInt32 = 0
                            if c != 0 {
                                let bx = x - o, by = y - o
                                if bx >= 0, by >= 0, bx < size, by < size {
                                    grey = UInt32(Self.rawValue(x: bx, y: by, size: size, roll: roll, pitch: pitch))
                                }
                            }
                            // Knob (grey × coverage) over black shadow, premultiplied.
                            let g = UInt8((grey * c + 127) / 255)
                            let a = UInt8(c + (UInt32(sh[p]) * (255 - c) + 127) / 255)
                            out[p * 4] = g
                            out[p * 4 + 1] = g
                            out[p * 4 + 2] = g
                            out[p * 4 + 3] = a
                        }
                    }
                }
            }
        }
    }
}
