/// One channel of an RGBA colour, the job of one linked slider.
public enum ColourComponent: String, Sendable, CaseIterable, Comparable {
    case red, green, blue, alpha

    /// The channel's value in a colour.
    public func value(in colour: RGBAColour) -> Double {
        switch self {
        case .red: colour.red
        case .green: colour.green
        case .blue: colour.blue
        case .alpha: colour.alpha
        }
    }

    /// `colour` with this channel replaced by `value`.
    public func replacing(in colour: RGBAColour, with value: Double) -> RGBAColour {
        var c = colour
        switch self {
        case .red: c.red = value
        case .green: c.green = value
        case .blue: c.blue = value
        case .alpha: c.alpha = value
        }
        return c
    }

    /// R, G, B, A: the order tracks are redrawn in.
    public static func < (a: ColourComponent, b: ColourComponent) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
