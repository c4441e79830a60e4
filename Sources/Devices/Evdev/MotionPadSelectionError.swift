import Motion
import Wording
/// Why no evdev motion sensor could be chosen, and what to do.
public enum MotionPadSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// udev lists no input device with ID_INPUT_ACCELEROMETER=1.
    case noMotionSensor
    /// `Setting.device` matched no motion sensor; `available` lists those that exist.
    case noMatch(query: String, available: [String])
    /// The node exists but is not a motion sensor (no INPUT_PROP_ACCELEROMETER
    /// or no ABS_X/Y/Z): tiltd does not read other input devices.
    case notMotionSensor(node: String, name: String)

    public var description: String {
        switch self {
        case .noMotionSensor:
            return "no motion sensor among the input devices (none has ID_INPUT_ACCELEROMETER=1): "
                + "connect a game pad (DualShock 4, DualSense, Switch Pro, Joy-Con) or check `tiltd list`"
        case .noMatch(let query, let available):
            let listed = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "no motion sensor matches \(Setting.device) \(query) (by node or name); available: \(listed)"
        case .notMotionSensor(let node, let name):
            return "\(node) (\(name)) is not a motion sensor (no INPUT_PROP_ACCELEROMETER with ABS_X/Y/Z): "
                + "pass the pad's \"Motion Sensors\" node that `tiltd list` shows"
        }
    }
}
