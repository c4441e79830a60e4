import Glibc

/// The procedural knob base: a grey disc brushed in concentric rings,
/// lighter toward the centre, with an antialiased rim over a soft black drop
/// shadow.
///
/// Measured on the original's 48 px base (reference/mtz/knob-base@2x.png):
/// neutral grey, 236 at the very centre; rings alternate every pixel (a
/// 2 px period, 1 pt) around a mean that drops fast near the centre and then
/// slowly (mean over 4 px bands of radius: 215, 195, 190, 185, 181, 185 from
/// the centre out), with a standard deviation of 12 to 20 grey levels
/// within those bands (rings of about ±18 near the centre to ±30 at the rim).
/// The thumb adds a 2 pt black shadow with a 2 pt blur (SPEC §1).
public enum KnobBasePainter {
    /// Mean grey against radius (fraction of the knob radius), from the
    /// measured band means above; linear in between.
    static let meanProfile: [(radius: Double, grey: Double)] = [
        (0, 232), (0.083, 215), (0.25, 195), (0.42, 190), (0.58, 185), (0.75, 181), (0.92, 184), (1, 186),
    ]
    /// Ring contrast (half peak-to-peak) at the centre and at the rim.
    static let centreRingContrast = 18.0, rimRingContrast = 30.0
    /// Shadow opacity, blur (Gaussian σ, points) and downward offset (points).
    static let shadowOpacity = 0.7, shadowSigmaPoints = 1.0, shadowOffsetPoints = 0.5
    /// Subsamples per pixel side for the antialiased rim.
    static let subsamples = 4

    /// Ring period in pixels: 1 pt at @2x as in the original (2 px), half a
    /// point on larger knobs so a big knob still looks brushed rather than
    /// grooved, never under 2 px (finer rings would alias into moiré).
    static func ringPeriod(_ geometry: KnobGeometry) -> Double {
        max(2, geometry.pixelsPerPoint / 2)
    }

    /// Contrast of the fine brushing grain, grey levels: none at the
    /// original's sizes (its rings are the grain), up to ±7 on big knobs.
    static func grainContrast(_ geometry: KnobGeometry) -> Double {
        min(7, max(0, (geometry.pixelsPerPoint - 2) * 3.5))
    }

    /// A repeatable pseudo-random value in [−1, 1] for integer `i`
    /// (an integer hash, so every platform paints the same grain).
    @inline(__always)
    static func hashNoise(_ i: Int) -> Double {
        var h = UInt32(truncatingIfNeeded: i) &* 0x9E37_79B1
        h ^= h >> 15
        h = h &* 0x85EB_CA77
        h ^= h >> 13
        return Double(h & 0xFFFF) / 32767.5 - 1
    }

    /// Grey of the brushed metal at `r` pixels from the centre.
    @inline(__always)
    static func grey(atRadius r: Double, radius: Double, period: Double, grain: Double) -> Double {
        let t = min(1, r / radius)
        var i = 1
        while i < meanProfile.count - 1, meanProfile[i].radius < t { i += 1 }
        let (r0, g0) = meanProfile[i - 1], (r1, g1) = meanProfile[i]
        let mean = g0 + (g1 - g0) * min(1, max(0, (t - r0) / (r1 - r0)))
        // Wider rings than the original's 2 px read as grooves at full
        // contrast: soften them as the period grows.
        let soften = min(1, 2 / period).squareRoot()
        let contrast = (centreRingContrast + (rimRingContrast - centreRingContrast) * t) * soften
        // Rings: a cosine of the radius, plus a slow beat so they do not
        // look machine-regular.
        let phase = 2 * Double.pi * r / period
        let ring = 0.8 * cos(phase) + 0.2 * cos(phase * 0.37 + 1.3)
        // Grain: random grey per 0.7 px band of radius, linearly blended.
        let band = r / 0.7
        let b0 = Int(band.rounded(.down))
        let f = band - Double(b0)
        let noise = hashNoise(b0) * (1 - f) + hashNoise(b0 + 1) * f
        return mean + contrast * ring + grain * noise
    }

    /// The base layer: knob and shadow, premultiplied RGBA, frame-sized.
    public static func image(_ geometry: KnobGeometry) -> RGBAImage {
        let n = geometry.frameSize
        let c = geometry.centre
        let radius = geometry.knobRadius
        let period = ringPeriod(geometry)
        let grain = grainContrast(geometry)
        let sigma = shadowSigmaPoints * geometry.pixelsPerPoint
        let shadowCentreY = c.y + shadowOffsetPoints * geometry.pixelsPerPoint
        let s = subsamples
        var image = RGBAImage(width: n, height: n)
        for y in 0..<n {
            for x in 0..<n {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                // Shadow: a disc blurred by a Gaussian; across a rim much
                // larger than σ that is the normal CDF of the distance inside.
                let sd = ((px - c.x) * (px - c.x) + (py - shadowCentreY) * (py - shadowCentreY)).squareRoot()
                let shadow = shadowOpacity * 0.5 * erfc((sd - radius) / (sigma * 2.0.squareRoot()))
                // Knob: supersampled coverage and grey.
                var coverage = 0.0, greySum = 0.0
                let centreDistance = ((px - c.x) * (px - c.x) + (py - c.y) * (py - c.y)).squareRoot()
                if centreDistance < radius - 1 {
                    coverage = 1
                    greySum = grey(atRadius: centreDistance, radius: radius, period: period, grain: grain)
                } else if centreDistance < radius + 1 {
                    for j in 0..<s {
                        for i in 0..<s {
                            let sx = px + (Double(i) + 0.5) / Double(s) - 0.5 - c.x
                            let sy = py + (Double(j) + 0.5) / Double(s) - 0.5 - c.y
                            let r = (sx * sx + sy * sy).squareRoot()
                            if r <= radius {
                                coverage += 1
                                greySum += grey(atRadius: r, radius: radius, period: period, grain: grain)
                            }
                        }
                    }
                    if coverage > 0 { greySum /= coverage }
                    coverage /= Double(s * s)
                }
                // Knob over shadow, premultiplied: the shadow is black, so it
                // adds alpha only.
                let alpha = coverage + shadow * (1 - coverage)
                let g = min(255, max(0, greySum)) * coverage
                let i = (y * n + x) * 4
                let gv = UInt8(g.rounded()), av = UInt8((alpha * 255).rounded())
                image.pixels[i] = min(gv, av)
                image.pixels[i + 1] = min(gv, av)
                image.pixels[i + 2] = min(gv, av)
                image.pixels[i + 3] = av
            }
        }
        return image
    }
}
