/// Where the knob sits in a frame, in pixels.
///
/// A frame is the original's thumb image: the knob plus a soft-shadow margin
/// on every side. MTZTiltReflectionSlider's regular thumb is 28 pt holding a
/// 24 pt knob (2 pt margin), the small one 20 pt holding 16 pt; @2x doubles
/// everything (SPEC §1). Coordinates are continuous with y down: pixel
/// `(x, y)` covers `[x, x+1) × [y, y+1)`, so the centre of a 256 px frame is
/// `(128, 128)`.
public struct KnobGeometry: Sendable, Equatable {
    /// Side of the square frame in pixels.
    public let frameSize: Int
    /// Knob diameter in pixels (not necessarily whole).
    public let knobDiameter: Double
    /// Pixels per point of the original: the screen scale for the
    /// original's sizes, `knobDiameter / 24` for a frame of any size (the
    /// regular knob is 24 pt). Sets the shadow blur, ring period and track
    /// height, which the original gives in points.
    public let pixelsPerPoint: Double

    /// Smallest and largest frame sizes the rasterizer supports, in pixels.
    public static let supportedSizes = 16...1024

    /// The regular knob scaled to a frame of `frameSize` pixels: the knob's
    /// diameter is 24/28 of the frame, as in the original's thumb.
    /// - Parameter frameSize: frame side in pixels, 16…1024.
    public init(frameSize: Int) {
        precondition(Self.supportedSizes.contains(frameSize),
                     "knob frame size \(frameSize) px is outside 16…1024")
        self.frameSize = frameSize
        self.knobDiameter = Double(frameSize) * 24 / 28
        self.pixelsPerPoint = knobDiameter / 24
    }

    /// The original's knob at a screen scale: a `knobPoints` pt knob in a
    /// frame 4 pt larger (2 pt shadow margin each side), times `scale`.
    /// - Parameters:
    ///   - knobPoints: 24 for the regular knob, 16 for the small one.
    ///   - scale: screen scale, 1, 2 or 3 (48 px regular knob @2x).
    public init(knobPoints: Int, scale: Int) {
        let frame = (knobPoints + 4) * scale
        precondition(Self.supportedSizes.contains(frame),
                     "\(knobPoints) pt knob @\(scale)x makes a \(frame) px frame, outside 16…1024")
        self.frameSize = frame
        self.knobDiameter = Double(knobPoints * scale)
        self.pixelsPerPoint = Double(scale)
    }

    /// Knob radius in pixels.
    public var knobRadius: Double { knobDiameter / 2 }

    /// The knob centre (and the shines' pivot) in frame pixels, y down.
    public var centre: SIMD2<Double> { SIMD2(repeating: Double(frameSize) / 2) }

    /// Half the length of the shine's long (vertical) axis in pixels: the
    /// original's 46 px shine on a 48 px knob reaches 23/24 of the radius.
    public var shineRadius: Double { knobRadius * 23 / 24 }

    /// The change-gate threshold of SPEC §1 for this knob: a rotation that
    /// moves the rim by a third of a pixel, `1 / (3 · r_px)` radians.
    public var oneThirdPixelAtRimRadians: Double { 1 / (3 * knobRadius) }
}
