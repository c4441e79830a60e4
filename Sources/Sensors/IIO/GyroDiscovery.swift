import Motion
/// Finds the gyroscope that belongs with an accelerometer (docs/devices.md,
/// "Gyroscope"). The rule, first match wins:
///
/// 1. same device: `in_anglvel_x/y/z` on the accelerometer's own device;
/// 2. sibling: a device named `<stem>_gyro` beside `<stem>_accel`
///    (st_lsm6dsx), or any gyro whose sysfs parent is the accelerometer's;
/// 3. same hub: HID `gyro_3d` whose sensor hub (the parent of its parent)
///    is `accel_3d`'s, or, off a local context, the only `gyro_3d`;
/// 4. same location: label `gyro-X` (or udev `ACCEL_LOCATION` X) for an
///    accelerometer at X.
///
/// No match means no gyro: a gyro elsewhere in the machine may sit on
/// another part (a convertible's base) and would turn the wrong way.
struct GyroDiscovery {
    /// A found gyro: its device and x, y, z channels.
    struct Found {
        var device: IIODeviceHandle
        var axes: [IIOChannelHandle]
        var info: GyroInfo
    }

    static let axisNames = ["anglvel_x", "anglvel_y", "anglvel_z"]

    let context: IIOContext
    private var iio: any IIOBackend { context.iio }

    /// The gyro for the accelerometer `accelerometer` (described by `info`).
    ///
    /// - Throws: `IIOError` / `DeviceAttributeError` when the paired gyro's
    ///   attributes cannot be read or make no sense.
    func gyro(for accelerometer: IIODeviceHandle, info: AccelerometerInfo,
              allDevices: [IIODeviceHandle]) throws -> Found? {
        let own = Self.axisNames.compactMap { iio.inputChannel(accelerometer, id: $0) }
        if own.count == 3 {
            return try describe(accelerometer, axes: own, pairing: .sameDevice, accelerometer: info)
        }
        let candidates = allDevices.filter { device in
            device != accelerometer && !iio.isTrigger(device)
                && Self.axisNames.allSatisfy { iio.inputChannel(device, id: $0) != nil }
        }
        guard !candidates.isEmpty else { return nil }
        let accelPath = context.isLocal ? LibIIO.udevSyspath(sysname: info.id) : nil
        func parent(_ path: String?, levels: Int) -> String? { GyroDiscovery.ancestor(path, levels: levels) }
        var best: (rank: Int, device: IIODeviceHandle, pairing: GyroInfo.Pairing)?
        for device in candidates {
            let name = iio.deviceName(device)
            let path = context.isLocal ? LibIIO.udevSyspath(sysname: iio.deviceID(device)) : nil
            var match: (Int, GyroInfo.Pairing)?
            if let accelName = info.name, accelName.hasSuffix("_accel"),
               name == String(accelName.dropLast("_accel".count)) + "_gyro" {
                match = (0, .sibling)
            } else if let accelParent = parent(accelPath, levels: 1), parent(path, levels: 1) == accelParent {
                match = (1, .sibling)
            } else if info.name == "accel_3d", name == "gyro_3d" {
                if let hub = parent(accelPath, levels: 2) {
                    if parent(path, levels: 2) == hub { match = (2, .sameHub) }
                } else if candidates.filter({ iio.deviceName($0) == "gyro_3d" }).count == 1 {
                    match = (2, .sameHub)
                }
            }
            if match == nil, let location = info.location {
                let gyroLocation = iio.deviceLabel(device).flatMap { label in
                    label.hasPrefix("gyro-") ? String(label.dropFirst("gyro-".count)) : nil
                }
                if gyroLocation == location { match = (3, .sameLocation) }
            }
            if let match, best == nil || match.0 < best!.rank { best = (match.0, device, match.1) }
        }
        guard let best else { return nil }
        let axes = Self.axisNames.compactMap { iio.inputChannel(best.device, id: $0) }
        return try describe(best.device, axes: axes, pairing: best.pairing, accelerometer: info)
    }

    private func describe(_ device: IIODeviceHandle, axes: [IIOChannelHandle], pairing: GyroInfo.Pairing,
                          accelerometer: AccelerometerInfo) throws -> Found {
        let id = iio.deviceID(device)
        let name = iio.deviceName(device)
        let shown = name.map { "\(id) (\($0))" } ?? id
        let reader = AttributeReader(iio: iio, device: device, shownName: shown)
        // A bare `scale` on a shared device is the accelerometer's: only the
        // anglvel channels' own scale counts there.
        let (scale, scaleSource) = try reader.calibration(axes: axes, attribute: "scale", absent: 1,
                                                          channelsOnly: pairing == .sameDevice)
        let (offset, _) = try reader.calibration(axes: axes, attribute: "offset", absent: 0,
                                                 channelsOnly: pairing == .sameDevice)

        var matrix = accelerometer.mountMatrix
        var source = "the accelerometer's (\(accelerometer.mountMatrixSource.rawValue))"
        func parse(_ text: String, _ file: String) throws {
            do { matrix = try MountMatrix(parsing: text) } catch {
                throw DeviceAttributeError(device: shown, attribute: file, problem: "\(error)")
            }
            source = file
        }
        if iio.hasChannelAttribute(axes[0], "mount_matrix") {
            try parse(try reader.channel(axes[0], "mount_matrix"), "in_anglvel_mount_matrix")
        } else if pairing != .sameDevice, iio.hasDeviceAttribute(device, "mount_matrix") {
            try parse(try reader.device("mount_matrix"), "mount_matrix")
        }
        let rate = try reader.samplingFrequency()
        let info = GyroInfo(id: id, name: name, pairing: pairing, scale: scale, offset: offset,
                            scaleSource: scaleSource, mountMatrix: matrix, mountMatrixSource: source,
                            samplingFrequencyHertz: rate, bufferCapable: axes.allSatisfy { iio.isScanElement($0) })
        return Found(device: device, axes: axes, info: info)
    }

    /// The sysfs path `levels` folders up from `path` (1: the parent), nil
    /// when there is no path or it is not that deep.
    static func ancestor(_ path: String?, levels: Int) -> String? {
        guard var path else { return nil }
        for _ in 0..<levels {
            guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
            path = String(path[..<slash])
        }
        return path
    }
}
