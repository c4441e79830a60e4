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

    /// `sampling_frequency` in Hz, nil when the device has none.
    func samplingFrequency() throws -> Double? {
        guard iio.hasDeviceAttribute(device, "sampling_frequency") else { return nil }
        return try AttributeText.double(try self.device("sampling_frequency"),
                                        attribute: "\(iio.deviceID(device))/sampling_frequency")
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
    /// bare device attribute `scale`, else `absent` (SPEC §4). With
    /// `channelsOnly` (a gyro sharing the accelerometer's device, whose bare
    /// `scale` is the accelerometer's) an axis without its own is `absent`.
    func calibration(axes: [IIOChannelHandle], attribute: String, absent: Double,
                     channelsOnly: Bool = false) throws -> (SIMD3<Double>, String) {
        var values = SIMD3<Double>(repeating: absent)
        var sources: [String] = []
        let fallback = "default \(absent == 0 ? "0" : "1")"
        for (index, axis) in axes.enumerated() {
            if iio.hasChannelAttribute(axis, attribute) {
                let file = iio.channelAttributeFile(axis, attribute) ?? attribute
                values[index] = try AttributeText.double(try channel(axis, attribute), attribute: file)
                sources.append(file)
            } else if channelsOnly {
                continue
            } else if iio.hasDeviceAttribute(device, attribute) {
                values[index] = try AttributeText.double(try self.device(attribute), attribute: attribute)
                sources.append(attribute)
            } else {
                sources.append(fallback)
            }
        }
        var unique: [String] = []
        for source in sources where !unique.contains(source) { unique.append(source) }
        return (values, unique.isEmpty ? fallback : unique.joined(separator: ", "))
    }
}
