/// The four discrete orientations of a screen, named as iio-sensor-proxy
/// names them (which edge of the device points up).
public enum ScreenOrientation: String, Sendable, CaseIterable, Codable {
    case normal
    case bottomUp = "bottom-up"
    case leftUp = "left-up"
    case rightUp = "right-up"
}
