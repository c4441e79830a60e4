import Motion
import Wording
/// Why no accelerometer could be chosen, and what to do.
public enum AccelerometerSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The context has no device with accel_x, accel_y and accel_z.
    case noAccelerometer(uri: String, deviceCount: Int)
    /// `Setting.device` matched nothing; `available` lists what exists.
    case noMatch(query: String, uri: String, available: [String])
    /// Only accelerometers in a keyboard base exist; they do not follow the screen.
    case onlyBase(uri: String, ids: [String])

    public var description: String {
        switch self {
        case .noAccelerometer(let uri, 0):
            return "no IIO devices on \(uri): load the sensor's driver (or check `dmesg`), "
                + "or read a remote sensor with \(Setting.uri) ip:HOST"
        case .noAccelerometer(let uri, let count):
            return "none of the \(count) IIO devices on \(uri) is an accelerometer (in_accel_x/y/z): "
                + "check `tiltd list` or `iio_info -u \(uri)`"
        case .noMatch(let query, let uri, let available):
            let listed = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "no accelerometer on \(uri) matches \(Setting.device) \(query) (by id, name, label or location); "
                + "available: \(listed)"
        case .onlyBase(let uri, let ids):
            return "the only accelerometers on \(uri) are in the base (\(ids.joined(separator: ", "))), "
                + "which does not turn with the screen: pass \(Setting.device) \(ids[0]) to use it anyway"
        }
    }
}
