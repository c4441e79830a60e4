import Motion
/// Finds the accelerometers of a context and reads what tiltd needs to know
/// about them (SPEC §4).
struct AccelerometerDiscovery {
    /// One accelerometer: its libiio device and what was read from it.
    struct Found {
        var device: IIODeviceHandle
        var axes: [IIOChannelHandle]
        var timestamp: IIOChannelHandle?
        var info: AccelerometerInfo
        /// The paired gyroscope, if any.
        var gyro: GyroDiscovery.Found? = nil
        /// The hub's fused rotation, if any.
        var rotation: RotationDiscovery.Found? = nil
    }

    let context: IIOContext
    private var iio: any IIOBackend { context.iio }

    /// Every device with input channels accel_x, accel_y and accel_z.
    ///
    /// An accelerometer whose attributes cannot be read or make no sense is
    /// left out and its error appended to `skipped`, so one broken device
    /// does not hide the others.
    ///
    /// - Throws: the first such error when no accelerometer could be described.
    func accelerometers(skipped: inout [any Error]) throws -> [Found] {
        let devices = iio.devices(context.handle)
        var found: [Found] = []
        var problems: [any Error] = []
        for device in devices where !iio.isTrigger(device) {
            let axes = ["accel_x", "accel_y", "accel_z"].compactMap { iio.inputChannel(device, id: $0) }
            guard axes.count == 3 else { continue }
            do {
                found.append(try describe(device, axes: axes, allDevices: devices))
            } catch {
                problems.append(error)
            }
        }
        if found.isEmpty, let first = problems.first { throw first }
        skipped += problems
        return found
    }

    private func describe(_ device: IIODeviceHandle, axes: [IIOChannelHandle],
                          allDevices: [IIODeviceHandle]) throws -> Found {
        let id = iio.deviceID(device)
        let name = iio.deviceName(device)
        let shown = name.map { "\(id) (\($0))" } ?? id
        let reader = AttributeReader(iio: iio, device: device, shownName: shown)

        let udev = context.isLocal
            ? LibIIO.udevProperties(sysname: id, names: ["ACCEL_MOUNT_MATRIX", "ACCEL_LOCATION"]) : [:]
        let (scale, scaleSource) = try reader.calibration(axes: axes, attribute: "scale", absent: 1)
        let (offset, offsetSource) = try reader.calibration(axes: axes, attribute: "offset", absent: 0)
        let (matrix, matrixSource) = try mountMatrix(reader: reader, axes: axes, udev: udev, shown: shown)

        let rate = try reader.samplingFrequency()
        var availableText: String? = nil
        var available: SamplingFrequencies? = nil
        if iio.hasDeviceAttribute(device, "sampling_frequency_available") {
            let text = try reader.device("sampling_frequency_available")
            availableText = text.trimmingNewline()
            available = try AttributeText.samplingFrequencies(text, attribute: "\(id)/sampling_frequency_available")
        }
        let timestamp = iio.inputChannel(device, id: "timestamp")
        let clock = iio.hasDeviceAttribute(device, "current_timestamp_clock")
            ? try reader.device("current_timestamp_clock").trimmingNewline() : nil

        let info = AccelerometerInfo(
            id: id, name: name, label: iio.deviceLabel(device), udevLocation: udev["ACCEL_LOCATION"],
            uri: context.uri, scale: scale, offset: offset, scaleSource: scaleSource,
            offsetSource: offsetSource, mountMatrix: matrix, mountMatrixSource: matrixSource,
            samplingFrequencyHertz: rate, availableFrequencies: available,
            availableFrequenciesText: availableText,
            bufferCapable: axes.allSatisfy { iio.isScanElement($0) },
            hasTimestamp: timestamp.map { iio.isScanElement($0) } ?? false,
            currentTrigger: iio.currentTriggerName(device),
            triggerCandidate: Self.triggerCandidate(id: id, name: name, allDevices: allDevices, iio: iio),
            timestampClock: clock)
        var found = Found(device: device, axes: axes, timestamp: timestamp, info: info)
        do {
            found.gyro = try GyroDiscovery(context: context).gyro(for: device, info: info, allDevices: allDevices)
            found.info.gyro = found.gyro?.info
        } catch {
            found.info.gyroProblem = "\(error)"
        }
        // A rotation whose attributes fail is simply not offered.
        found.rotation = try? RotationDiscovery(context: context).rotation(for: info, allDevices: allDevices)
        found.info.rotation = found.rotation?.info
        return found
    }

    /// SPEC §4 priority: udev ACCEL_MOUNT_MATRIX, sysfs mount_matrix,
    /// in_accel_mount_matrix, in_mount_matrix, identity.
    private func mountMatrix(reader: AttributeReader, axes: [IIOChannelHandle], udev: [String: String],
                             shown: String) throws -> (MountMatrix, MountMatrixSource) {
        func parse(_ text: String, _ source: MountMatrixSource) throws -> (MountMatrix, MountMatrixSource) {
            do { return (try MountMatrix(parsing: text), source) } catch {
                throw DeviceAttributeError(device: shown, attribute: source.rawValue, problem: "\(error)")
            }
        }
        if let text = udev["ACCEL_MOUNT_MATRIX"] { return try parse(text, .udev) }
        if iio.hasDeviceAttribute(reader.device, "mount_matrix") {
            return try parse(try reader.device("mount_matrix"), .mountMatrix)
        }
        if iio.hasChannelAttribute(axes[0], "mount_matrix") {
            return try parse(try reader.channel(axes[0], "mount_matrix"), .accelMountMatrix)
        }
        // libiio 0.24 reads `in_mount_matrix` as channel "mount", attribute "matrix".
        if let mount = iio.inputChannel(reader.device, id: "mount"),
           iio.hasChannelAttribute(mount, "matrix") {
            return try parse(try reader.channel(mount, "matrix"), .inMountMatrix)
        }
        return (.identity, .identity)
    }

    /// HID sensor hubs name their trigger `<name>-dev<N>`, other drivers
    /// `<name>-trigger` (SPEC §4); nil when no such trigger exists.
    static func triggerCandidate(id: String, name: String?, allDevices: [IIODeviceHandle],
                                 iio: any IIOBackend) -> String? {
        guard let name else { return nil }
        let number = id.hasPrefix("iio:device") ? String(id.dropFirst("iio:device".count)) : id
        let triggers = Set(allDevices.filter { iio.isTrigger($0) }.compactMap { iio.deviceName($0) })
        for candidate in ["\(name)-dev\(number)", "\(name)-trigger"] where triggers.contains(candidate) {
            return candidate
        }
        return nil
    }
}
