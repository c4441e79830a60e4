extension RGBAImage {
    /// Composites a premultiplied `layer` over this image with the layer's
    /// top-left corner at pixel `(x, y)` of this one ("over": `src + dst ×
    /// (1 − src alpha)` per premultiplied channel, alpha included, rounded);
    /// parts of the layer outside this image are dropped.
    public mutating func composite(_ layer: RGBAImage, x originX: Int, y originY: Int) {
        for y in 0..<layer.height {
            let dy = originY + y
            guard dy >= 0, dy < height else { continue }
            for x in 0..<layer.width {
                let dx = originX + x
                guard dx >= 0, dx < width else { continue }
                let p = layer[x, y]
                guard p.a > 0 else { continue }
                let d = self[dx, dy]
                let keep = 255 - UInt32(p.a)
                func over(_ s: UInt8, _ b: UInt8) -> UInt8 { UInt8(min(255, UInt32(s) + (UInt32(b) * keep + 127) / 255)) }
                self[dx, dy] = RGBA8(r: over(p.r, d.r), g: over(p.g, d.g), b: over(p.b, d.b), a: over(p.a, d.a))
            }
        }
    }
}
