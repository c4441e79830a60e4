/// The colours of a LARSBar slider (CONTROLS.md §1).
public struct EQSliderStyle: Sendable, Equatable {
    /// The section colours, left to right: light `i` of `N` uses
    /// `sections[floor(C · i / N)]`.
    public var sections: [RGBAColour]
    /// A dark light left of the thumb.
    public var activeResting = RGBAColour(red: 0.376, green: 0.400, blue: 0.416)
    /// A dark light right of the thumb.
    public var inactiveResting = RGBAColour(red: 0.19, green: 0.19, blue: 0.19, alpha: 0.8)
    /// The hard shadow a lit dot casts 1 device pixel down.
    public var shadow = RGBAColour(red: 0.224, green: 0.227, blue: 0.231)
    /// Every dot's 1-device-pixel outline.
    public var outline = RGBAColour(red: 0.094, green: 0.102, blue: 0.102, alpha: 0.8)
    /// The slider's body, the demo frame's colour the image is drawn on.
    public var body = RGBAColour(red: 0.173, green: 0.188, blue: 0.192)
    /// The groove the thumb runs in. The original gives no colour: the demo
    /// background's, (0.14, 0.15, 0.16), a shade darker than the body.
    public var groove = RGBAColour(red: 0.14, green: 0.15, blue: 0.16)

    /// Green, yellow, orange, red.
    public static let defaultSections = [
        RGBAColour(red: 0.00, green: 0.90, blue: 0.29),
        RGBAColour(red: 1.00, green: 0.82, blue: 0.27),
        RGBAColour(red: 1.00, green: 0.38, blue: 0.14),
        RGBAColour(red: 1.00, green: 0.00, blue: 0.08),
    ]

    public init(sections: [RGBAColour] = Self.defaultSections) {
        precondition(!sections.isEmpty, "a LARSBar style needs at least one section colour")
        self.sections = sections
    }

    /// The original's look.
    public static let original = EQSliderStyle()
}
