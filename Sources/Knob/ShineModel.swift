/// One shine layer's pose: how far it is turned and how opaque it is.
public struct Shine: Sendable, Equatable {
    /// Rotation in radians in screen coordinates (y down, as UIKit and CSS):
    /// a positive angle turns clockwise on screen.
    public var rotation: Double
    /// Opacity in [0, 1].
    public var opacity: Double

    public init(rotation: Double, opacity: Double) {
        self.rotation = rotation
        self.opacity = opacity
    }
}

/// The two shines of the knob, bottom (`first`) to top (`second`).
public struct ShinePair: Sendable, Equatable {
    public var first: Shine
    public var second: Shine

    public init(first: Shine, second: Shine) {
        self.first = first
        self.second = second
    }

    /// Both shines unturned and fully opaque: the knob at rest.
    public static let rest = ShinePair(
        first: Shine(rotation: 0, opacity: 1), second: Shine(rotation: 0, opacity: 1))

    /// The shines of MTZTiltReflectionSlider for a screen-mapped attitude.
    ///
    /// Roll turns both shines against the roll and fades one of them; pitch
    /// splits them. Opacities are clamped to [0, 1].
    /// - Parameters:
    ///   - roll: mapped roll in radians (positive: right edge down).
    ///   - pitch: mapped pitch in radians (positive: top edge up).
    public init(roll: Double, pitch: Double) {
        first = Shine(rotation: -roll + pitch, opacity: min(max(1 + roll, 0), 1))
        second = Shine(rotation: -roll - pitch, opacity: min(max(1 - roll, 0), 1))
    }
}
