import Motion

/// One evdev motion sensor in `tiltd list`, as text or JSON.
public struct PadListEntry: Encodable, Sendable, Equatable {
    public var source = "evdev"
    public var node: String
    public var name: String
    public var chosen: Bool
    /// "054c:09cc".
    public var usbID: String
    public var bus: String
    public var family: String
    public var accelerometer: [EvdevAxis]
    public var gyroscope: [EvdevAxis]
    public var timestamp: Bool
    public var mountMatrix: String
    public var mountMatrixSource: String

    enum CodingKeys: String, CodingKey {
        case source, node, name, chosen, bus, family, accelerometer, gyroscope, timestamp
        case usbID = "usb_id", mountMatrix = "mount_matrix", mountMatrixSource = "mount_matrix_source"
    }

    public init(info: MotionPadInfo, chosen: Bool) {
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
    public func text() -> String {
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
