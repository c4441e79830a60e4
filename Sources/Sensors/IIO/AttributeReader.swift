import Motion
/// Reads attributes of one device, turning failures into `IIOError`s.
struct AttributeReader {
    let iio: any IIOBackend
    let device: IIODeviceHandle
    let shownName: String

    func device(_ name: String) throws -> String {
        switch iio.readDeviceAttribute(device, name) {
        case .success(let text): return text
        case .failure(let errno): throw IIOError("reading \(name)", on: shownName, errno: errno)
        }
    }

    func channel(_ channel: IIOChannelHandle, _ name: String) throws -> String {
        switch iio.readChannelAttribute(channel, name) {
        case .success(let text): return text
        case .failure(let errno):
            let file = iio.channelAttributeFile(channel, name) ?? name
            throw IIOError("reading \(file)", on: shownName, errno: errno)
        }
    }

    /// Scale or offset per axis: per-axis `in_accel_x_scale`, else shared
    /// `in_accel_scale` (libiio shows both as the channel's "scale"), else the
    /// bare device attribute `scale`, else `absent` (SPEC §4).
    func calibration(axes: [IIOChannelHandle], attribute: String,
                     absent: Double) throws -> (SIMD3<Double>, String) {
        var values = SIMD3<Double>(repeating: absent)
        var sources: [String] = []
        for (index, axis) in axes.enumerated() {
            if iio.hasChannelAttribute(axis, attribute) {
                let file = iio.channelAttributeFile(axis, attribute) ?? attribute
                values[index] = try AttributeText.double(try channel(axis, attribute), attribute: file)
                sources.append(file)
            } else if iio.hasDeviceAttribute(device, attribute) {
                values[index] = try AttributeText.double(try self.device(attribute), attribute: attribute)
                sources.append(attribute)
            } else {
                sources.append("default \(absent == 0 ? "0" : "1")")
            }
        }
        var unique: [String] = []
        for source in sources where !unique.contains(source) { unique.append(source) }
        return (values, unique.joined(separator: ", "))
    }
}
