import Motion

/// Draws knob frames in either style from what the display shows: the
/// animated shines (MTZ style) or the latest tilt (TLTiltSlider style, which
/// redraws from roll and pitch and does not animate).
public struct KnobRenderer: Sendable {
    public let style: KnobStyle
    public let geometry: KnobGeometry
    private var compositor: KnobCompositor?
    private var tltilt: TLTiltRenderer?

    /// Paints the layers once for `size`-pixel frames (16…1024).
    public init(size: Int, style: KnobStyle) {
        self.style = style
        geometry = KnobGeometry(frameSize: size)
        switch style {
        case .mtz: compositor = KnobCompositor(geometry: geometry)
        case .tltilt: tltilt = TLTiltRenderer(geometry: geometry)
        }
    }

    /// A transparent frame of the right size.
    public func makeFrame() -> RGBAImage {
        RGBAImage(width: geometry.frameSize, height: geometry.frameSize)
    }

    /// Draws one frame, overwriting `frame`.
    /// - Parameters:
    ///   - shines: the shines on screen (used by `.mtz`).
    ///   - tilt: the latest attitude (used by `.tltilt`: roll and pitch, radians).
    ///   - light: the colour of the light the shines reflect (`.mtz` only:
    ///     TLTiltSlider's greyscale bitmap has no separate shine).
    public mutating func render(shines: ShinePair, tilt: TiltState, light: LightColour = .white,
                                into frame: inout RGBAImage) {
        switch style {
        case .mtz: compositor!.compose(shines, light: light, into: &frame)
        case .tltilt: tltilt!.render(roll: tilt.roll, pitch: tilt.pitch, into: &frame)
        }
    }
}
