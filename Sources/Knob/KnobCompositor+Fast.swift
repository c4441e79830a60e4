extension KnobCompositor {
    /// Composes one frame: base, shine 1, shine 2. Overwrites every pixel of
    /// `frame` (`frameSize²`); the bytes equal `composeReference`'s.
    /// - Parameters:
    ///   - shines: rotations in radians (positive clockwise on screen) and
    ///     opacities (clamped to [0, 1]).
    ///   - light: the colour of the light the shines reflect (white: the
    ///     original, drawn with the white-only SIMD arithmetic).
    ///   - frame: the output, premultiplied RGBA.
    public func compose(_ shines: ShinePair, light: LightColour = .white, into frame: inout RGBAImage) {
        let n = geometry.frameSize
        precondition(frame.width == n && frame.height == n, "frame must be \(n)×\(n)")
        let dimmed = light.dimming(shines)
        let first = ShineTransform(dimmed.first), second = ShineTransform(dimmed.second)
        // Pixel centres where a shine's alpha is non-zero lie inside its disc
        // and strictly inside a wedge; one pixel of margin covers rounding.
        func spans(_ shine: Shine, _ t: ShineTransform) -> ShineSpans? {
            guard t.k > 0 else { return nil }
            return ShineSpans(rotation: shine.rotation, centre: geometry.centre,
                              radius: geometry.shineRadius + 1,
                              halfAngle: ShinePainter.wedgeHalfAngle, margin: 1, width: n)
        }
        let firstSpans = spans(dimmed.first, first)
        let secondSpans = spans(dimmed.second, second)

        angles.withUnsafeBufferPointer { angles in
            coverage.withUnsafeBufferPointer { coverage in
                layers.base.pixels.withUnsafeBufferPointer { base in
                    frame.pixels.withUnsafeMutableBufferPointer { out in
                        out.baseAddress!.update(from: base.baseAddress!, count: base.count)
                        guard firstSpans != nil || secondSpans != nil else { return }
                        for y in 0..<n {
                            let r1 = firstSpans?.row(y) ?? ShineSpans.Row()
                            let r2 = secondSpans?.row(y) ?? ShineSpans.Row()
                            guard r1.count + r2.count > 0 else { continue }
                            var lo = n, hi = 0
                            if r1.count > 0 { lo = r1.lo0; hi = r1.count == 2 ? r1.hi1 : r1.hi0 }
                            if r2.count > 0 {
                                lo = min(lo, r2.lo0)
                                hi = max(hi, r2.count == 2 ? r2.hi1 : r2.hi0)
                            }
                            if light.isOpaqueWhite {
                                Self.shadeRow(out, angles, coverage, from: y * n + lo, to: y * n + hi, first, second)
                            } else {
                                Self.tintRow(out, angles, coverage, from: y * n + lo, to: y * n + hi, first, second,
                                             light: light)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Blends both shines over pixels `a..<b` (linear indices) of `out`,
    /// which holds the base: eight pixels at a time, then a scalar tail.
    @inline(__always)
    static func shadeRow(_ out: UnsafeMutableBufferPointer<UInt8>,
                         _ angles: UnsafeBufferPointer<UInt16>, _ coverage: UnsafeBufferPointer<UInt16>,
                         from a: Int, to b: Int, _ s1: ShineTransform, _ s2: ShineTransform) {
        typealias V = SIMD8<UInt16>
        let o = UnsafeMutableRawPointer(out.baseAddress!)
        let ang = UnsafeRawPointer(angles.baseAddress!)
        let cov = UnsafeRawPointer(coverage.baseAddress!)
        let h = V(repeating: UInt16(ShinePainter.halfAngleUnits))
        @inline(__always) func alpha(_ angle: V, _ c: V, _ s: ShineTransform) -> V {
            let f = (angle &- s.angle) & 0x7FFF
            let d = pointwiseMin(f, 0x8000 &- f)
            let w = (h &- pointwiseMin(d, h)) &>> 5
            return ((((w &* s.k) &+ 128) &>> 8) &* c) &>> 8
        }
        // Four pixels (16 bytes) as eight 16-bit lanes, two lanes a pixel:
        // even bytes (R, B) and odd bytes (G, A) are blended separately, each
        // lane against its pixel's factor, so no byte shuffles are needed.
        // 255 − x is ~x: blend the inverted base and invert back.
        @inline(__always) func blend4(_ offset: Int, _ factor: V) {
            let inverse = ~o.loadUnaligned(fromByteOffset: offset, as: V.self)
            @inline(__always) func scale(_ x: V) -> V {
                let y = x &* factor &+ 127
                return (y &+ 1 &+ (y &>> 8)) &>> 8
            }
            let result = scale(inverse & 0x00FF) | (scale(inverse &>> 8) &<< 8)
            o.storeBytes(of: ~result, toByteOffset: offset, as: V.self)
        }
        var p = a
        while p + 8 <= b {
            let angle = ang.loadUnaligned(fromByteOffset: p * 2, as: V.self)
            let c = cov.loadUnaligned(fromByteOffset: p * 2, as: V.self)
            let t = (255 &- alpha(angle, c, s1)) &* (255 &- alpha(angle, c, s2)) &+ 128
            let f = (t &+ (t &>> 8)) &>> 8
            // Each pixel's factor on its two lanes.
            blend4(p * 4, V(f[0], f[0], f[1], f[1], f[2], f[2], f[3], f[3]))
            blend4(p * 4 + 16, V(f[4], f[4], f[5], f[5], f[6], f[6], f[7], f[7]))
            p += 8
        }
        let bytes = out.baseAddress!
        while p < b {
            let t = ShineTransform.transmittance(s1.alpha(angle: angles[p], coverage: coverage[p]),
                                                 s2.alpha(angle: angles[p], coverage: coverage[p]))
            let f = ShineTransform.blendFactor(t)
            for ch in 0..<4 { bytes[p * 4 + ch] = ShineTransform.blend(bytes[p * 4 + ch], f) }
            p += 1
        }
    }

    /// Blends both shines of a coloured light over pixels `a..<b` (linear
    /// indices) of `out`, which holds the base: the scalar `tint` per channel.
    static func tintRow(_ out: UnsafeMutableBufferPointer<UInt8>,
                        _ angles: UnsafeBufferPointer<UInt16>, _ coverage: UnsafeBufferPointer<UInt16>,
                        from a: Int, to b: Int, _ s1: ShineTransform, _ s2: ShineTransform, light: LightColour) {
        let channels = (light.red, light.green, light.blue)
        for p in a..<b {
            let t = ShineTransform.transmittance(s1.alpha(angle: angles[p], coverage: coverage[p]),
                                                 s2.alpha(angle: angles[p], coverage: coverage[p]))
            let f = ShineTransform.blendFactor(t)
            guard f < 255 else { continue }
            out[p * 4] = ShineTransform.tint(out[p * 4], f, light: channels.0)
            out[p * 4 + 1] = ShineTransform.tint(out[p * 4 + 1], f, light: channels.1)
            out[p * 4 + 2] = ShineTransform.tint(out[p * 4 + 2], f, light: channels.2)
            out[p * 4 + 3] = ShineTransform.tint(out[p * 4 + 3], f, light: 255)
        }
    }
}
