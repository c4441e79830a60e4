import Foundation
import Sensors

extension DeviceListing {
    /// A pretty-printed JSON array (keys sorted), accelerometers then pads,
    /// newline-terminated: `tiltd list` with `Setting.json`. Here rather than in Sensors,
    /// whose capture path `tiltd run` links without Foundation.
    public func json() throws -> Data {
        let entries = accelerometers.enumerated().map {
            ListedDevice(entry: DeviceListEntry(info: $0.element, chosen: $0.offset == chosenAccelerometer))
        } + pads.enumerated().map {
            ListedDevice(entry: PadListEntry(info: $0.element, chosen: $0.offset == chosenPad))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(entries) + Data("\n".utf8)
    }
}

/// An entry of the JSON array: an IIO accelerometer or an evdev pad, each
/// encoded with its own fields.
private struct ListedDevice: Encodable {
    let entry: any Encodable

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
    }
}
