/// The colour of the light the knob's shines reflect: straight (not
/// premultiplied) sRGB and alpha, 8 bits a channel.
///
/// The shines are the reflection of a light on brushed metal; the original's
/// light is white. A coloured light tints both shines; its alpha
/// scales how strongly they show (the shines' own opacities are multiplied
/// by it). Opaque white is the original look, and `KnobCompositor` keeps its
/// exact white arithmetic for it, so white frames are byte for byte those of
/// a knob without a light colour.
public struct LightColour: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The original's light: opaque white.
    public static let white = LightColour(red: 255, green: 255, blue: 255)

    /// A colour from `RRGGBB` or `RRGGBBAA` hexadecimal digits (a leading
    /// `#` is allowed); nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(rgba >> 24), green: UInt8((rgba >> 16) & 0xFF),
                  blue: UInt8((rgba >> 8) & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// True for the original's light, which the compositor draws with its
    /// white-only arithmetic.
    public var isOpaqueWhite: Bool { self == .white }

    /// `RRGGBBAA`, upper-case hexadecimal.
    public var hex: String {
        [red, green, blue, alpha].map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    public var description: String { hex }

    /// The shines as this light shows them: each opacity scaled by the
    /// light's alpha.
    public func dimming(_ shines: ShinePair) -> ShinePair {
        guard alpha != 255 else { return shines }
        let k = Double(alpha) / 255
        return ShinePair(first: Shine(rotation: shines.first.rotation, opacity: shines.first.opacity * k),
                         second: Shine(rotation: shines.second.rotation, opacity: shines.second.opacity * k))
    }
}
