/// One shine's pose in the compositor's 16-bit fixed-point terms, and the
/// alpha it gives a pixel. Every path (SIMD, scalar reference, the exported
/// layer) uses this arithmetic, so they agree to the byte.
///
/// Everything stays below 65 536, so SSE2 can do it eight lanes at a time
/// with 16-bit multiplies (`pmullw`). A pixel at angle `α` (1/65536 turn,
/// clockwise from up) sees the shine's profile at `φ = α − θ`. The bow-tie
/// is symmetric under a half turn, so `φ` folds to a half turn (`& 0x7FFF`)
/// and then to its distance `d` from the axis (0…16384, i.e. 0…90°). The
/// wedge weight is `w = H − min(d, H)` with `H` the half-angle (42° = 7646
/// units), taken to 0…238 as `w >> 5`; then alpha in 1/255 units is
/// `((w >> 5) · k + 128) >> 8` times the disc coverage (0…256) `>> 8`, with
/// `k = round(peak · opacity · 255 · 256 / 238)` (at most 244).
struct ShineTransform {
    /// Rotation in angle units.
    let angle: UInt16
    /// Opacity and peak folded together; 0 hides the shine.
    let k: UInt16

    /// `H >> 5`, the largest wedge weight.
    static let maxWeight = Double(ShinePainter.halfAngleUnits >> 5)

    init(_ shine: Shine) {
        angle = UInt16(ShinePainter.angleUnits(shine.rotation))
        let opacity = shine.opacity.isNaN ? 0 : min(1, max(0, shine.opacity))
        k = UInt16((ShinePainter.peakAlpha * opacity * 255 * 256 / Self.maxWeight).rounded())
    }

    /// Alpha (0…255) for a pixel at `angle` with disc coverage `coverage`
    /// (0…256).
    @inline(__always)
    func alpha(angle pixelAngle: UInt16, coverage: UInt16) -> UInt16 {
        let h = UInt16(ShinePainter.halfAngleUnits)
        let f = (pixelAngle &- angle) & 0x7FFF
        let d = min(f, 0x8000 &- f)
        let w = (h &- min(d, h)) &>> 5
        return ((((w &* k) &+ 128) &>> 8) &* coverage) &>> 8
    }

    /// Both shines' transmittance, `(255 − a₁)(255 − a₂)`, 0…65025.
    @inline(__always)
    static func transmittance(_ a1: UInt16, _ a2: UInt16) -> UInt16 {
        (255 &- a1) &* (255 &- a2)
    }

    /// A transmittance to the 0…255 blend factor, `round(t / 255)`; a pixel
    /// no shine touches gets 255.
    @inline(__always)
    static func blendFactor(_ t: UInt16) -> UInt16 {
        let x = t &+ 128
        return (x &+ (x &>> 8)) &>> 8
    }

    /// One premultiplied channel under blend factor `f` (0…255): the white
    /// shines over it, `255 − floor(((255 − base) · f + 127) / 255)`, with
    /// the exact shift form of the division (exact up to 65 534). At f = 255
    /// the base comes back unchanged.
    @inline(__always)
    static func blend(_ base: UInt8, _ f: UInt16) -> UInt8 {
        let y = UInt16(~base) &* f &+ 127
        return ~UInt8(truncatingIfNeeded: (y &+ 1 &+ (y &>> 8)) &>> 8)
    }

    /// One premultiplied channel under blend factor `f` (0…255) with shines
    /// of a coloured light: "over" with the light's straight channel value
    /// `light` (255 for the alpha channel), `floor((base · f + light · (255 − f)
    /// + 127) / 255)`. Two stacked layers of one colour give colour ·
    /// (1 − t) + base · t, so one pass does both shines. With `light` = 255
    /// this equals `blend` exactly (both round the same quotient; tested
    /// over every input).
    @inline(__always)
    static func tint(_ base: UInt8, _ f: UInt16, light: UInt8) -> UInt8 {
        let y = UInt32(base) * UInt32(f) + UInt32(light) * (255 - UInt32(f)) + 127
        return UInt8(y / 255)
    }
}
