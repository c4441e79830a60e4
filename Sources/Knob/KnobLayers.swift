/// The knob's layers at one frame size, painted once: what the compositor
/// and the web page stack up.
///
/// For `.mtz`, `base` is the brushed disc with its shadow and `shine` the
/// unrotated shine at opacity 1 (premultiplied white: R = G = B = A), both
/// frame-sized and centred on `geometry.centre`; a client draws base, then
/// the shine twice, each turned about the centre by its rotation (positive
/// = clockwise on screen) and scaled by its opacity. TLTiltSlider has no
/// layers: for `.tltilt`, `base` is its knob at rest and `shine` is fully
/// transparent.
public struct KnobLayers: Sendable {
    public let geometry: KnobGeometry
    public let style: KnobStyle
    /// The bottom layer, premultiplied RGBA, `frameSize²`.
    public let base: RGBAImage
    /// One shine, unrotated, opacity 1, premultiplied RGBA, `frameSize²`.
    public let shine: RGBAImage

    /// Paints the layers for a square frame of `size` pixels (16…1024).
    public init(size: Int, style: KnobStyle = .mtz) {
        self.init(geometry: KnobGeometry(frameSize: size), style: style)
    }

    /// Paints the layers for a given geometry.
    public init(geometry: KnobGeometry, style: KnobStyle = .mtz) {
        self.geometry = geometry
        self.style = style
        switch style {
        case .mtz:
            base = KnobBasePainter.image(geometry)
            shine = ShinePainter.image(geometry)
        case .tltilt:
            let renderer = TLTiltRenderer(geometry: geometry)
            var frame = RGBAImage(width: geometry.frameSize, height: geometry.frameSize)
            renderer.render(roll: 0, pitch: 0, into: &frame)
            base = frame
            shine = RGBAImage(width: geometry.frameSize, height: geometry.frameSize)
        }
    }
}
