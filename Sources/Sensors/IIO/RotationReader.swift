import Motion
/// Reads a hub's `in_rot_quaternion_raw` (four integers) on demand.
struct RotationReader {
    let iio: any IIOBackend
    let channel: IIOChannelHandle
    let info: RotationInfo

    /// The four components as the hub gives them, times the scale.
    ///
    /// - Throws: `IIOError` when the read fails, `AttributeTextError` when
    ///   the text is not four integers.
    func read() throws -> SIMD4<Double> {
        switch iio.readChannelAttribute(channel, "raw") {
        case .failure(let errno):
            throw IIOError("reading in_rot_quaternion_raw", on: info.displayName, errno: errno)
        case .success(let text):
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard fields.count == 4 else {
                throw AttributeTextError(attribute: "\(info.displayName) in_rot_quaternion_raw", text: text,
                                         problem: "expected four integers (x, y, z, w in some order)")
            }
            var components = SIMD4<Double>()
            for (index, field) in fields.enumerated() {
                components[index] = Double(try AttributeText.integer(String(field),
                                                                     attribute: "\(info.displayName) in_rot_quaternion_raw"))
            }
            return components * info.scale
        }
    }
}
