/// Whatever `tiltd render`'s frame loop draws: the knob alone, the knob on
/// its track, or a whole control with the knob as its thumb. The loop owns
/// the clock (the frame index and the animated shines); a painter only turns
/// one frame's inputs into pixels, so one loop serves every control.
public protocol FramePainter: Sendable {
    /// Frame width in pixels.
    var frameWidth: Int { get }
    /// Frame height in pixels.
    var frameHeight: Int { get }
    /// Draws one frame into `image` (`frameWidth × frameHeight`), every pixel.
    ///
    /// Called once per frame in order, so a painter may keep state that
    /// follows the frame clock (a fade, a level cursor).
    /// - Parameters:
    ///   - frame: the animated shines and the latest state at the frame's time.
    ///   - seconds: the frame's time since the render's first frame, seconds.
    mutating func paint(_ frame: FrameSampler.Frame, atSeconds seconds: Double, into image: inout RGBAImage)
}
