/// A colour as the originals give them: straight (not premultiplied) sRGB
/// and alpha, each 0…1, interpolated in these ordinary non-linear values as
/// UIKit did (CONTROLS.md).
public struct RGBAColour: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from hue, saturation and brightness (HSB = HSV), each 0…1,
    /// as `UIColor(hue:saturation:brightness:alpha:)`.
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h.rounded(.down)) % 6
        let f = h - h.rounded(.down)
        let v = brightness, p = v * (1 - saturation)
        let q = v * (1 - saturation * f), t = v * (1 - saturation * (1 - f))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// This colour with its alpha multiplied by `factor` (a fade or a
    /// gradient stop).
    public func fading(_ factor: Double) -> RGBAColour {
        RGBAColour(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// Premultiplied channels (r·a, g·a, b·a, a), clamped to 0…1.
    var premultiplied: SIMD4<Double> {
        let a = Self.unit(alpha)
        return SIMD4(Self.unit(red) * a, Self.unit(green) * a, Self.unit(blue) * a, a)
    }

    /// The straight channels in 0–255 values, rounded half away from zero.
    public var bytes: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        (Self.byte(red), Self.byte(green), Self.byte(blue), Self.byte(alpha))
    }

    static func unit(_ x: Double) -> Double { x.isNaN ? 0 : min(1, max(0, x)) }
    static func byte(_ x: Double) -> UInt8 { UInt8((unit(x) * 255).rounded()) }
}
