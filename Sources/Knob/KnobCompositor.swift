/// Composites knob frames from layers painted once: the base, then shine 1,
/// then shine 2, each shine turned about the knob centre by its rotation
/// (positive = clockwise on screen, y down) and scaled by its opacity.
///
/// The shine is held in polar form (`ShinePainter`): per pixel, its angle
/// about the centre and the disc coverage. Turning a shine is then an exact
/// shift of the angle: no resampling, no blur, no gathers. Both shines are
/// the colour of one light (white by default), so stacking them equals one
/// layer of that colour whose transmittance is the product of theirs, and
/// every premultiplied channel (alpha included) becomes
/// `out = light · (1 − t) + base · t` with `t = (1 − a₁)(1 − a₂)`, applied
/// with `t` rounded to 1/255; for white that is `255 − (255 − base) · t`.
/// The arithmetic is 16-bit fixed point (`ShineTransform`), eight lanes to
/// an SSE2 register with native 16-bit multiplies.
///
/// The fast path copies the base, then on each row works only over the
/// columns `ShineSpans` says either shine can touch, eight pixels at a time
/// with SIMD, with a scalar tail (a coloured light takes a scalar loop over
/// the same columns). `composeReference` is the plain scalar loop over every
/// pixel with the same integer arithmetic; the two give identical bytes
/// (tested). All per-pixel work is integer, so identical input gives
/// identical bytes on every run.
public struct KnobCompositor: Sendable {
    public let geometry: KnobGeometry
    /// The painted layers (base and unturned shine), for other renderers.
    public let layers: KnobLayers
    /// Per pixel: angle about the centre, 1/65536 turn clockwise from up.
    let angles: [UInt16]
    /// Per pixel: shine disc coverage, 0…256.
    let coverage: [UInt16]

    /// Paints the layers for a square frame of `size` pixels (16…1024).
    public init(size: Int) {
        self.init(geometry: KnobGeometry(frameSize: size))
    }

    public init(geometry: KnobGeometry) {
        self.geometry = geometry
        layers = KnobLayers(geometry: geometry, style: .mtz)
        angles = ShinePainter.angleTable(geometry)
        coverage = ShinePainter.coverageTable(geometry)
    }

    /// A transparent frame of the right size to compose into.
    public func makeFrame() -> RGBAImage {
        RGBAImage(width: geometry.frameSize, height: geometry.frameSize)
    }

    /// The plain scalar reference: every pixel, one at a time.
    /// Overwrites every pixel of `frame` (`frameSize²`).
    /// - Parameters:
    ///   - shines: the two shines' rotations and opacities.
    ///   - light: the colour of the light the shines reflect.
    ///   - frame: the output, premultiplied RGBA.
    public func composeReference(_ shines: ShinePair, light: LightColour = .white, into frame: inout RGBAImage) {
        let n = geometry.frameSize
        precondition(frame.width == n && frame.height == n, "frame must be \(n)×\(n)")
        let dimmed = light.dimming(shines)
        let first = ShineTransform(dimmed.first), second = ShineTransform(dimmed.second)
        let channels = [light.red, light.green, light.blue, 255]
        let base = layers.base.pixels
        for p in 0..<(n * n) {
            let t = ShineTransform.transmittance(first.alpha(angle: angles[p], coverage: coverage[p]),
                                                 second.alpha(angle: angles[p], coverage: coverage[p]))
            let f = ShineTransform.blendFactor(t)
            for c in 0..<4 {
                frame.pixels[p * 4 + c] = light.isOpaqueWhite
                    ? ShineTransform.blend(base[p * 4 + c], f)
                    : ShineTransform.tint(base[p * 4 + c], f, light: channels[c])
            }
        }
    }
}
