/// One shine's pose in the compositor's 16-bit fixed-point terms, and the
/// alpha it gives a pixel. Every path (SIMD, scalar reference, the exported
/// layer) uses this arithmetic, so they agree to the byte.
///
/// Fractions are 16-bit (`x / 65536`) and products keep the high half,
/// `mulhi(a, b) = (a · b) >> 16`, which SIMD does eight lanes at a time.
/// A pixel at angle `α` (1/65536 turn, clockwise from up) sees the shine's
/// profile at `φ = α − θ`. The bow-tie is symmetric under a half turn, so
/// `φ` folds to a half turn (`& 0x7FFF`) and then to its distance `d` from
/// the axis (0…16384, i.e. 0…90°). The wedge weight is `w = H − min(d, H)`
/// with `H` the half-angle (42° = 7646 units); then
/// `alpha = mulhi(mulhi(8w, k), coverage)` with
/// `k = peak · opacity · 65536 / (8H / 65536)`, so `alpha / 65536 ≈
/// (w / H) · peak · opacity · coverage`.
struct ShineTransform {
    /// Rotation in angle units.
    let angle: UInt16
    /// Opacity and peak folded together (at most 62 516); 0 hides the shine.
    let k: UInt16

    init(_ shine: Shine) {
        angle = UInt16(ShinePainter.angleUnits(shine.rotation))
        let opacity = shine.opacity.isNaN ? 0 : min(1, max(0, shine.opacity))
        let w8 = Double(ShinePainter.halfAngleUnits) * 8 / 65536
        k = UInt16((ShinePainter.peakAlpha * opacity * 65536 / w8).rounded())
    }

    /// `(a · b) >> 16`.
    @inline(__always)
    static func mulhi(_ a: UInt16, _ b: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(a) &* UInt32(b)) &>> 16)
    }

    /// Alpha as a 16-bit fraction for a pixel at `angle` with disc coverage
    /// `coverage` (a 16-bit fraction).
    @inline(__always)
    func alpha(angle pixelAngle: UInt16, coverage: UInt16) -> UInt16 {
        let h = UInt16(ShinePainter.halfAngleUnits)
        let f = (pixelAngle &- angle) & 0x7FFF
        let d = min(f, 0x8000 &- f)
        let w = h &- min(d, h)
        return Self.mulhi(Self.mulhi(w &<< 3, k), coverage)
    }

    /// Transmittance of both shines together, a 16-bit fraction:
    /// `mulhi(65535 − a₁, 65535 − a₂)`.
    @inline(__always)
    static func transmittance(_ a1: UInt16, _ a2: UInt16) -> UInt16 {
        mulhi(0xFFFF &- a1, 0xFFFF &- a2)
    }

    /// A transmittance to the 0…256 blend factor: `mulhi(t, 257)`, so a
    /// pixel no shine touches (t = 65534) keeps its base exactly.
    @inline(__always)
    static func blendFactor(_ t: UInt16) -> UInt16 {
        mulhi(t, 257)
    }

    /// One premultiplied channel under blend factor `f` (0…256): the white
    /// shines over it, `255 − ((255 − base) · f + 128) >> 8`.
    @inline(__always)
    static func blend(_ base: UInt8, _ f: UInt16) -> UInt8 {
        ~UInt8(truncatingIfNeeded: ((UInt16(~base) &* f) &+ 128) &>> 8)
    }
}
