extension Y4MWriter {
    /// Whether the 8×2 block at `(x, y)` has the same bytes in both frames:
    /// four 64-bit words a row (whole-vector `==` on SIMD types compiles to
    /// a lane-by-lane loop).
    @inline(__always)
    static func unchanged(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, w: Int, x: Int, y: Int) -> Bool {
        let i = (y * w + x) * 4, j = i + w * 4
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var d: UInt64 = 0
        for k in stride(from: 0, to: 32, by: 8) {
            d |= ra.loadUnaligned(fromByteOffset: i + k, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: i + k, as: UInt64.self)
            d |= ra.loadUnaligned(fromByteOffset: j + k, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: j + k, as: UInt64.self)
        }
        return d == 0
    }

    /// Converts eight columns of two rows (four 2×2 chroma blocks) starting
    /// at `(x, y)` with the per-pixel path's arithmetic, vectorised.
    ///
    /// Each pixel loads as one 32-bit lane (little-endian: R in the low
    /// byte, A in the high byte) and channels come out with shifts and masks.
    /// Every intermediate fits in 16 bits (at most 65 407), so the maths runs
    /// on the same registers viewed as 16-bit lanes, where SSE2 multiplies
    /// natively: the value sits in each 32-bit lane's low half, and whatever
    /// the high halves compute is never read. Chroma sums pairs of pixels
    /// by viewing the registers as 64-bit lanes (two pixels each).
    @inline(__always)
    static func eightColumns(_ src: UnsafePointer<UInt8>, w: Int, x: Int, y: Int,
                             _ yPlane: UnsafeMutablePointer<UInt8>,
                             _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>,
                             _ bgR: UInt32, _ bgG: UInt32, _ bgB: UInt32) {
        typealias P = SIMD8<UInt32>   // one pixel a lane
        typealias H = SIMD16<UInt16>  // the same bits as 16-bit lanes
        @inline(__always) func h(_ v: P) -> H { unsafeBitCast(v, to: H.self) }
        @inline(__always) func p(_ v: H) -> P { unsafeBitCast(v, to: P.self) & 0xFFFF }
        @inline(__always) func share(_ bg: UInt32, _ k: H) -> H {
            let v = H(repeating: UInt16(bg)) &* k &+ 127
            return (v &+ 1 &+ (v &>> 8)) &>> 8
        }
        @inline(__always) func row(_ y: Int) -> (r: P, g: P, b: P) {
            let v = UnsafeRawPointer(src + (y * w + x) * 4).loadUnaligned(as: P.self)
            let k = h(255 &- (v &>> 24))
            let r = h(v & 0xFF) &+ share(bgR, k)
            let g = h((v &>> 8) & 0xFF) &+ share(bgG, k)
            let b = h((v &>> 16) & 0xFF) &+ share(bgB, k)
            let luma = p(((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
            let out = yPlane + y * w + x
            for i in 0..<8 { out[i] = UInt8(truncatingIfNeeded: luma[i]) }
            return (p(r), p(g), p(b))
        }
        let top = row(y), bottom = row(y + 1)
        // Sum of each horizontal pair: a 64-bit lane holds two pixels.
        @inline(__always) func blockMean(_ s: P) -> H {
            let q = unsafeBitCast(s, to: SIMD4<UInt64>.self)
            return unsafeBitCast(((q & 0xFFFF_FFFF) &+ (q &>> 32) &+ 2) &>> 2, to: H.self)
        }
        let r = blockMean(top.r &+ bottom.r), g = blockMean(top.g &+ bottom.g), b = blockMean(top.b &+ bottom.b)
        let u = unsafeBitCast((112 &* b &+ 32896 &- 38 &* r &- 74 &* g) &>> 8, to: SIMD4<UInt64>.self)
        let v = unsafeBitCast((112 &* r &+ 32896 &- 94 &* g &- 18 &* b) &>> 8, to: SIMD4<UInt64>.self)
        for i in 0..<4 {
            cb[i] = UInt8(truncatingIfNeeded: u[i])
            cr[i] = UInt8(truncatingIfNeeded: v[i])
        }
    }
}
