import Knob

/// The whole LARSBar slider over time, one render frame at a time: the
/// thumb shines as the frame's animated tilt says, and the lights follow a
/// list of timed channel levels through the original's model and fade.
///
/// Every level update is handed to the `EQLightAnimator` at its own time
/// (a WAV gives 144 a second, more than the frame rate), so a fade starts
/// when its update came, not at the next frame; each frame then shows σ at
/// the frame's time. Time is the render's frame clock: seconds since the
/// first frame, the same clock the updates' `seconds` are on. The lights
/// start dark, as a meter that has heard nothing yet; after the last update
/// its levels are held.
public struct EQSliderFramePainter: FramePainter {
    /// One level update: its time (seconds since the first frame) and the two channel levels (0…1).
    public typealias LevelUpdate = (seconds: Double, left: Double, right: Double)

    public let painter: EQSliderPainter
    /// The light the thumb's shines reflect.
    public let light: LightColour
    /// The value and the latest levels handed in.
    public private(set) var model: EQSliderModel
    /// Every light's fade.
    public private(set) var animator: EQLightAnimator
    /// The σ of every light in the last frame painted (all 0 before the first).
    public private(set) var shownLevels: EQLightLevels
    private let updates: [LevelUpdate]
    private var nextUpdate = 0

    /// - Parameters:
    ///   - layout: the slider's size (at least 20 × 28 pt).
    ///   - scale: device pixels per point, 1…3.
    ///   - value: the slider's value, 0…1.
    ///   - updates: the levels over time, `seconds` never decreasing.
    ///   - light: the colour of the light the thumb's shines reflect.
    public init(layout: EQSliderLayout, scale: Int, value: Double, updates: [LevelUpdate], light: LightColour = .white) {
        painter = EQSliderPainter(layout: layout, scale: scale)
        self.light = light
        self.updates = updates
        model = EQSliderModel(value: value, leftLevel: 0, rightLevel: 0)
        animator = EQLightAnimator(lightCount: layout.lightCount)
        shownLevels = animator.levels(atSeconds: 0)
    }

    /// `W·s`, rounded as `ControlCanvas` rounds it.
    public var frameWidth: Int { Int((painter.layout.widthPoints * Double(painter.scale)).rounded()) }
    /// `H·s`, rounded as `ControlCanvas` rounds it.
    public var frameHeight: Int { Int((painter.layout.heightPoints * Double(painter.scale)).rounded()) }

    /// Hands the animator every update up to `seconds`, each at its own time.
    public mutating func advance(toSeconds seconds: Double) {
        while nextUpdate < updates.count, updates[nextUpdate].seconds <= seconds {
            let update = updates[nextUpdate]
            model.leftLevel = update.left
            model.rightLevel = update.right
            animator.update(model, atSeconds: update.seconds)
            nextUpdate += 1
        }
    }

    public mutating func paint(_ frame: FrameSampler.Frame, atSeconds seconds: Double, into image: inout RGBAImage) {
        advance(toSeconds: seconds)
        shownLevels = animator.levels(atSeconds: seconds)
        image = painter.paint(model, levels: shownLevels, shines: frame.shines, light: light)
    }
}
