import Glibc

/// How far the screen faces up or down, with iio-sensor-proxy's five
/// `AccelerometerTilt` strings and thresholds (SPEC §12): the screen's
/// normal makes an angle with the horizon; below 20° it is vertical,
/// 20–70° tilted, beyond 70° face-up or face-down.
public enum TiltPosition: String, Sendable, CaseIterable {
    case vertical
    case tiltedUp = "tilted-up"
    case tiltedDown = "tilted-down"
    case faceUp = "face-up"
    case faceDown = "face-down"

    /// Below this elevation (degrees) the screen counts as vertical.
    public static let verticalLimitDegrees = 20.0
    /// Beyond this elevation (degrees) it counts as face-up or face-down.
    public static let tiltedLimitDegrees = 70.0

    /// The position for tiltd's roll and pitch (radians, CoreMotion's
    /// convention: flat face up is 0, 0). Gravity's component along the
    /// screen's normal is cos(pitch)·cos(roll) of 1 g, so the elevation of
    /// the normal is its arcsine; positive when the screen faces the sky.
    public init(roll: Double, pitch: Double) {
        let sine = max(-1, min(1, cos(pitch) * cos(roll)))
        self.init(elevationDegrees: asin(sine) * 180 / Double.pi)
    }

    /// The position for an elevation of the screen's normal in degrees.
    public init(elevationDegrees: Double) {
        let magnitude = abs(elevationDegrees)
        if magnitude < TiltPosition.verticalLimitDegrees {
            self = .vertical
        } else if magnitude <= TiltPosition.tiltedLimitDegrees {
            self = elevationDegrees > 0 ? .tiltedUp : .tiltedDown
        } else {
            self = elevationDegrees > 0 ? .faceUp : .faceDown
        }
    }
}
