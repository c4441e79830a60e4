/// `tiltd render`'s default frames: the knob alone on a transparent square
/// frame, or (with a slider value) the whole track slider with the knob at
/// that value, `4 × size` wide.
public struct KnobFramePainter: FramePainter {
    /// The knob's frame side in pixels, also the frame height.
    public let size: Int
    /// The light the shines reflect (MTZ style).
    public let light: LightColour
    /// The slider's value 0…1, or nil for the knob alone.
    public let sliderValue: Double?
    private var knob: KnobRenderer?
    private var slider: SliderRenderer?

    /// - Parameters:
    ///   - size: the knob's frame side in pixels (16…1024).
    ///   - style: how the knob is drawn.
    ///   - light: the colour of the light the shines reflect (`.mtz` only).
    ///   - sliderValue: draw the track slider at this value (0…1) instead of the knob alone.
    public init(size: Int, style: KnobStyle, light: LightColour, sliderValue: Double?) {
        self.size = size
        self.light = light
        self.sliderValue = sliderValue
        if sliderValue == nil {
            knob = KnobRenderer(size: size, style: style)
        } else {
            slider = SliderRenderer(width: 4 * size, frameSize: size, style: style)
        }
    }

    public var frameWidth: Int { sliderValue == nil ? size : 4 * size }
    public var frameHeight: Int { size }

    public mutating func paint(_ frame: FrameSampler.Frame, atSeconds seconds: Double, into image: inout RGBAImage) {
        if let sliderValue {
            slider!.render(value: sliderValue, shines: frame.shines, tilt: frame.latest.tilt, light: light, into: &image)
        } else {
            knob!.render(shines: frame.shines, tilt: frame.latest.tilt, light: light, into: &image)
        }
    }
}
