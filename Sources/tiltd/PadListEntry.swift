import Motion
import Sensors

/// One evdev motion sensor in `tiltd list`, as text or JSON.
struct PadListEntry: Encodable {
    var source = "evdev"
    var node: String
    var name: String
    var chosen: Bool
    /// "054c:09cc".
    var usbID: String
    var bus: String
    var family: String
    var accelerometer: [EvdevAxis]
    var gyroscope: [EvdevAxis]
    var timestamp: Bool
    var mountMatrix: String
    var mountMatrixSource: String

    enum CodingKeys: String, CodingKey {
        case source, node, name, chosen, bus, family, accelerometer, gyroscope, timestamp
        case usbID = "usb_id", mountMatrix = "mount_matrix", mountMatrixSource = "mount_matrix_source"
    }

    init(info: MotionPadInfo, chosen: Bool) {
        node = info.node
        name = info.name
        self.chosen = chosen
        usbID = info.usbID
        bus = switch info.bus {
        case 3: "usb"
        case 5: "bluetooth"
        default: "bus \(info.bus)"
        }
        family = info.family.rawValue
        accelerometer = info.accelerometerAxes
        gyroscope = info.gyroscopeAxes
        timestamp = info.hasTimestamp
        mountMatrix = info.mountMatrix.iioText
        mountMatrixSource = info.mountMatrixSourceText
    }

    /// The human-readable block for this pad.
    func text() -> String {
        var lines = ["\(chosen ? "*" : " ") \(node)  \(name)",
                     "    evdev         \(usbID) over \(bus), \(family)"]
        func axes(_ list: [EvdevAxis], unit: String) -> String {
            list.map { "\($0.name) \($0.minimum)…\($0.maximum) res \($0.resolution)" }.joined(separator: ", ")
                + " (resolution in units per \(unit))"
        }
        lines.append("    accelerometer \(axes(accelerometer, unit: "g"))")
        lines.append("    gyroscope     " + (gyroscope.isEmpty ? "none" : axes(gyroscope, unit: "°/s")))
        lines.append("    mount matrix  \(mountMatrix) (\(mountMatrixSource))")
        lines.append("    timestamps    " + (timestamp ? "MSC_TIMESTAMP (µs, unwrapped)" : "event time"))
        return lines.joined(separator: "\n") + "\n"
    }
}
