/// Which way a device lying flat faces, named as iio-sensor-proxy 3.6's
/// `AccelerometerTilt` names it.
public enum Facing: String, Sendable, CaseIterable, Codable {
    case up = "face-up"
    case down = "face-down"
}
