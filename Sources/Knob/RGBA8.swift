/// One premultiplied RGBA pixel, 8 bits a channel.
public struct RGBA8: Sendable, Equatable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// An opaque grey.
    public init(grey: UInt8) {
        self.init(r: grey, g: grey, b: grey, a: 255)
    }

    /// The dark grey behind the sliders in the original's screenshot
    /// (reference/mtz/example-sliders.png): the median of its background
    /// pixels away from the sliders (rows 0–14 and 185–199, and the left
    /// margin) is R 19, G 19, B 21, #131315 (the mean is 18.6, 19.0, 20.4).
    public static let referenceBackground = RGBA8(r: 0x13, g: 0x13, b: 0x15)

    /// An opaque colour from six hexadecimal digits `RRGGBB` (a leading `#`
    /// is allowed); nil if the text is anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        self.init(r: UInt8(value >> 16), g: UInt8((value >> 8) & 0xFF), b: UInt8(value & 0xFF))
    }

    /// This pixel composited over an opaque colour: `src + bg × (1 − a)`.
    public func over(_ background: RGBA8) -> RGBA8 {
        let k = 255 - UInt32(a)
        func ch(_ s: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, UInt32(s) + (UInt32(b) * k + 127) / 255))
        }
        return RGBA8(r: ch(r, background.r), g: ch(g, background.g), b: ch(b, background.b), a: 255)
    }
}
