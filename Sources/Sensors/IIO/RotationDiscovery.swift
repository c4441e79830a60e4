import Motion
/// Finds a sensor hub's fused rotation (`dev_rotation` with
/// `in_rot_quaternion_raw`) for an HID accelerometer: on the same hub (the
/// parent of each device's parent), or, off a local context, the only one.
struct RotationDiscovery {
    struct Found {
        var channel: IIOChannelHandle
        var info: RotationInfo
    }

    let context: IIOContext
    private var iio: any IIOBackend { context.iio }

    func rotation(for info: AccelerometerInfo, allDevices: [IIODeviceHandle]) throws -> Found? {
        let candidates = allDevices.filter { device in
            !iio.isTrigger(device) && iio.inputChannel(device, id: "rot_quaternion") != nil
        }
        guard !candidates.isEmpty else { return nil }
        let device: IIODeviceHandle
        if context.isLocal {
            guard let hub = GyroDiscovery.ancestor(LibIIO.udevSyspath(sysname: info.id), levels: 2),
                  let match = candidates.first(where: {
                      GyroDiscovery.ancestor(LibIIO.udevSyspath(sysname: iio.deviceID($0)), levels: 2) == hub
                  }) else { return nil }
            device = match
        } else {
            guard candidates.count == 1 else { return nil }
            device = candidates[0]
        }
        let id = iio.deviceID(device)
        let name = iio.deviceName(device)
        let shown = name.map { "\(id) (\($0))" } ?? id
        let reader = AttributeReader(iio: iio, device: device, shownName: shown)
        let channel = iio.inputChannel(device, id: "rot_quaternion")!
        var scale = 1.0
        var scaleSource = "default 1"
        if iio.hasChannelAttribute(channel, "scale") {
            let file = iio.channelAttributeFile(channel, "scale") ?? "scale"
            scale = try AttributeText.double(try reader.channel(channel, "scale"), attribute: file)
            scaleSource = file
        }
        let rate = try reader.samplingFrequency()
        return Found(channel: channel, info: RotationInfo(id: id, name: name, scale: scale, scaleSource: scaleSource,
                                                         samplingFrequencyHertz: rate))
    }
}
