import Knob

/// How much shine a frame carries in each quadrant about the knob centre:
/// the sum over pixels of the red channel above the base layer's. Tests of
/// rotation direction assert on where this mass goes, not on the code.
struct ShineMass {
    var topLeft = 0, topRight = 0, bottomLeft = 0, bottomRight = 0
    var total: Int { topLeft + topRight + bottomLeft + bottomRight }

    init(frame: RGBAImage, base: RGBAImage) {
        let c = frame.width / 2
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let m = Int(frame[x, y].r) - Int(base[x, y].r)
                if x < c, y < c { topLeft += m }
                if x >= c, y < c { topRight += m }
                if x < c, y >= c { bottomLeft += m }
                if x >= c, y >= c { bottomRight += m }
            }
        }
    }
}
