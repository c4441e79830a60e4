/// An entry of `tiltd list --json`: an IIO accelerometer or an evdev pad,
/// each encoded with its own fields.
struct ListedDevice: Encodable {
    let entry: any Encodable

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
    }
}
