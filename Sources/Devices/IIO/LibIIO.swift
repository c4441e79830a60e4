import CLibIIO
import Motion

/// The libiio calls the device logic makes, on typed handles: `LibIIO` makes
/// them, tests substitute a backend of their own to run discovery, fallback,
/// reopening and gyro pairing in-process. Negative results are `Errno`s.
protocol IIOBackend: Sendable {
    func createContext(uri: String) -> Result<IIOContextHandle, Errno>
    func destroyContext(_ context: IIOContextHandle)
    func contextName(_ context: IIOContextHandle) -> String
    func setTimeout(_ context: IIOContextHandle, milliseconds: UInt32) -> Int32
    func devices(_ context: IIOContextHandle) -> [IIODeviceHandle]
    func deviceID(_ device: IIODeviceHandle) -> String
    func deviceName(_ device: IIODeviceHandle) -> String?
    func deviceLabel(_ device: IIODeviceHandle) -> String?
    func isTrigger(_ device: IIODeviceHandle) -> Bool
    func channels(_ device: IIODeviceHandle) -> [IIOChannelHandle]
    func inputChannel(_ device: IIODeviceHandle, id: String) -> IIOChannelHandle?
    func hasDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool
    func readDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Result<String, Errno>
    func writeDeviceAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno?
    func currentTriggerName(_ device: IIODeviceHandle) -> String?
    func setTrigger(_ device: IIODeviceHandle, _ trigger: IIODeviceHandle?) -> Errno?
    func isScanElement(_ channel: IIOChannelHandle) -> Bool
    func scanIndex(_ channel: IIOChannelHandle) -> Int
    func dataFormat(_ channel: IIOChannelHandle) -> ScanElementType
    func channelAttributeFile(_ channel: IIOChannelHandle, _ name: String) -> String?
    func localAttributePath(_ channel: IIOChannelHandle, _ name: String) -> String?
    func hasChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Bool
    func readChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Result<String, Errno>
    func enable(_ channel: IIOChannelHandle)
    func disable(_ channel: IIOChannelHandle)
    func hasBufferAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool
    func writeBufferAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno?
    func createBuffer(_ device: IIODeviceHandle, samples: Int) -> Result<IIOBufferHandle, Errno>
    func setNonBlocking(_ buffer: IIOBufferHandle) -> Errno?
    func destroyBuffer(_ buffer: IIOBufferHandle)
    func pollDescriptor(_ buffer: IIOBufferHandle) -> Int32?
    func cancel(_ buffer: IIOBufferHandle)
    func refill(_ buffer: IIOBufferHandle) -> Result<Int, Errno>
    func bufferBytes(_ buffer: IIOBufferHandle) -> UnsafeRawBufferPointer
    func sampleSize(_ device: IIODeviceHandle) -> Int
}

/// An `iio_context`, owned by `IIOContext`.
struct IIOContextHandle: Hashable, @unchecked Sendable { let pointer: OpaquePointer }
/// An `iio_device`, valid while its context lives.
struct IIODeviceHandle: Hashable, @unchecked Sendable { let pointer: OpaquePointer }
/// An `iio_channel`, valid while its context lives.
struct IIOChannelHandle: Hashable, @unchecked Sendable { let pointer: OpaquePointer }
/// An `iio_buffer`, valid until destroyed.
struct IIOBufferHandle: Hashable, @unchecked Sendable { let pointer: OpaquePointer }

/// Every raw libiio and libudev call tiltd makes, and nothing else.
///
/// Callers above this file turn failures into `IIOError`s that say what
/// failed, where, and what to do. Negative return values of libiio are
/// `-errno` (libiio 0.24 convention).
struct LibIIO: IIOBackend {
    // MARK: Contexts

    /// Creates a context; the corresponding C function is
    /// `iio_create_context_from_uri`.
    func createContext(uri: String) -> Result<IIOContextHandle, Errno> {
        tiltd_clear_errno()
        if let context = iio_create_context_from_uri(uri) { return .success(IIOContextHandle(pointer: context)) }
        let code = tiltd_errno()
        return .failure(Errno(code == 0 ? EINVAL : code))
    }

    /// Frees a context. Only `IIOContext.deinit` calls this.
    func destroyContext(_ context: IIOContextHandle) {
        iio_context_destroy(context.pointer)
    }

    /// The backend's name: "local", "network", "usb", "xml".
    func contextName(_ context: IIOContextHandle) -> String {
        Self.string(iio_context_get_name(context.pointer)) ?? ""
    }

    /// Sets the timeout of blocking operations (refill, network I/O).
    func setTimeout(_ context: IIOContextHandle, milliseconds: UInt32) -> Int32 {
        iio_context_set_timeout(context.pointer, milliseconds)
    }

    func devices(_ context: IIOContextHandle) -> [IIODeviceHandle] {
        (0..<iio_context_get_devices_count(context.pointer)).compactMap {
            iio_context_get_device(context.pointer, $0).map(IIODeviceHandle.init)
        }
    }

    // MARK: Devices

    func deviceID(_ device: IIODeviceHandle) -> String {
        Self.string(iio_device_get_id(device.pointer)) ?? ""
    }

    func deviceName(_ device: IIODeviceHandle) -> String? {
        Self.string(iio_device_get_name(device.pointer))
    }

    func deviceLabel(_ device: IIODeviceHandle) -> String? {
        Self.string(iio_device_get_label(device.pointer))
    }

    func isTrigger(_ device: IIODeviceHandle) -> Bool {
        iio_device_is_trigger(device.pointer)
    }

    func channels(_ device: IIODeviceHandle) -> [IIOChannelHandle] {
        (0..<iio_device_get_channels_count(device.pointer)).compactMap {
            iio_device_get_channel(device.pointer, $0).map(IIOChannelHandle.init)
        }
    }

    /// An input channel by id ("accel_x"), or nil.
    func inputChannel(_ device: IIODeviceHandle, id: String) -> IIOChannelHandle? {
        iio_device_find_channel(device.pointer, id, false).map(IIOChannelHandle.init)
    }

    func hasDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool {
        iio_device_find_attr(device.pointer, name) != nil
    }

    /// Reads a device attribute's text; the C function is `iio_device_attr_read`.
    func readDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Result<String, Errno> {
        Self.readText { iio_device_attr_read(device.pointer, name, $0, $1) }
    }

    /// Writes a device attribute; the C function is `iio_device_attr_write`.
    func writeDeviceAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno? {
        let written = iio_device_attr_write(device.pointer, name, value)
        return written < 0 ? Errno(Int32(-written)) : nil
    }

    /// The current trigger's name, nil when none is set or it cannot be read.
    func currentTriggerName(_ device: IIODeviceHandle) -> String? {
        var trigger: OpaquePointer? = nil
        guard iio_device_get_trigger(device.pointer, &trigger) == 0, let trigger else { return nil }
        return deviceName(IIODeviceHandle(pointer: trigger))
    }

    /// Sets (or with nil clears) the device's trigger: `iio_device_set_trigger`.
    func setTrigger(_ device: IIODeviceHandle, _ trigger: IIODeviceHandle?) -> Errno? {
        let status = iio_device_set_trigger(device.pointer, trigger?.pointer)
        return status < 0 ? Errno(-status) : nil
    }

    // MARK: Channels

    func isScanElement(_ channel: IIOChannelHandle) -> Bool {
        iio_channel_is_scan_element(channel.pointer)
    }

    func scanIndex(_ channel: IIOChannelHandle) -> Int {
        Int(iio_channel_get_index(channel.pointer))
    }

    /// The channel's scan element type as libiio parsed `scan_elements/*_type`.
    func dataFormat(_ channel: IIOChannelHandle) -> ScanElementType {
        let format = iio_channel_get_data_format(channel.pointer).pointee
        return ScanElementType(bigEndian: format.is_be, signed: format.is_signed,
                               bits: Int(format.bits), storageBits: Int(format.length),
                               shift: Int(format.shift))
    }

    /// The sysfs file behind the channel attribute `name`, which is also the
    /// one `iio_channel_attr_read` reads when a per-axis and a shared file
    /// both appear as "scale".
    func channelAttributeFile(_ channel: IIOChannelHandle, _ name: String) -> String? {
        Self.string(iio_channel_attr_get_filename(channel.pointer, name))
    }

    /// The sysfs path of the channel attribute `name` when its context is
    /// the local backend (`/sys/bus/iio/devices/iio:deviceN/in_accel_x_raw`,
    /// the file libiio's local backend opens itself), else nil: over iiod
    /// or USB only libiio can read it.
    func localAttributePath(_ channel: IIOChannelHandle, _ name: String) -> String? {
        guard let device = iio_channel_get_device(channel.pointer),
              let context = iio_device_get_context(device),
              Self.string(iio_context_get_name(context)) == "local",
              let id = Self.string(iio_device_get_id(device)),
              let file = channelAttributeFile(channel, name) else { return nil }
        return "/sys/bus/iio/devices/\(id)/\(file)"
    }

    func hasChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Bool {
        iio_channel_find_attr(channel.pointer, name) != nil
    }

    /// Reads a channel attribute's text; the C function is `iio_channel_attr_read`.
    func readChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Result<String, Errno> {
        Self.readText { iio_channel_attr_read(channel.pointer, name, $0, $1) }
    }

    func enable(_ channel: IIOChannelHandle) { iio_channel_enable(channel.pointer) }
    func disable(_ channel: IIOChannelHandle) { iio_channel_disable(channel.pointer) }

    // MARK: Buffers

    /// Whether the device's `buffer/` directory has `name` ("watermark"):
    /// `iio_device_find_buffer_attr`.
    func hasBufferAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool {
        iio_device_find_buffer_attr(device.pointer, name) != nil
    }

    /// Writes `buffer/<name>` ("length", "watermark") while the buffer is
    /// disabled: `iio_device_buffer_attr_write`.
    func writeBufferAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno? {
        let written = iio_device_buffer_attr_write(device.pointer, name, value)
        return written < 0 ? Errno(Int32(-written)) : nil
    }

    /// Creates (and so enables) a buffer of `samples` scans: `iio_device_create_buffer`.
    func createBuffer(_ device: IIODeviceHandle, samples: Int) -> Result<IIOBufferHandle, Errno> {
        tiltd_clear_errno()
        if let buffer = iio_device_create_buffer(device.pointer, samples, false) { return .success(IIOBufferHandle(pointer: buffer)) }
        let code = tiltd_errno()
        return .failure(Errno(code == 0 ? EIO : code))
    }

    /// Makes `refill` return EAGAIN at once when no scan is ready instead
    /// of waiting: `iio_buffer_set_blocking_mode`.
    func setNonBlocking(_ buffer: IIOBufferHandle) -> Errno? {
        let result = iio_buffer_set_blocking_mode(buffer.pointer, false)
        return result < 0 ? Errno(Int32(-result)) : nil
    }

    /// Disables the buffer and frees it: `iio_buffer_destroy`.
    func destroyBuffer(_ buffer: IIOBufferHandle) { iio_buffer_destroy(buffer.pointer) }

    /// The file descriptor that becomes readable when the buffer has a scan
    /// (`iio_buffer_get_poll_fd`); nil when the backend has none.
    func pollDescriptor(_ buffer: IIOBufferHandle) -> Int32? {
        let descriptor = iio_buffer_get_poll_fd(buffer.pointer)
        return descriptor < 0 ? nil : descriptor
    }

    /// Wakes a refill blocked in another thread: `iio_buffer_cancel`.
    func cancel(_ buffer: IIOBufferHandle) { iio_buffer_cancel(buffer.pointer) }

    /// Blocks until the buffer is full or the context timeout passes:
    /// `iio_buffer_refill`. Returns the number of bytes read.
    func refill(_ buffer: IIOBufferHandle) -> Result<Int, Errno> {
        let read = iio_buffer_refill(buffer.pointer)
        return read < 0 ? .failure(Errno(Int32(-read))) : .success(read)
    }

    /// The bytes the last refill delivered.
    func bufferBytes(_ buffer: IIOBufferHandle) -> UnsafeRawBufferPointer {
        guard let start = iio_buffer_start(buffer.pointer), let end = iio_buffer_end(buffer.pointer) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }

    /// One scan's size in bytes with the currently enabled channels.
    func sampleSize(_ device: IIODeviceHandle) -> Int {
        iio_device_get_sample_size(device.pointer)
    }

    // MARK: udev

    /// The udev properties of `/sys/bus/iio/devices/<sysname>`, for the given
    /// names; empty when udev cannot be reached or the device is unknown.
    static func udevProperties(sysname: String, names: [String]) -> [String: String] {
        guard let udev = udev_new() else { return [:] }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_subsystem_sysname(udev, "iio", sysname) else { return [:] }
        defer { udev_device_unref(device) }
        var found: [String: String] = [:]
        for name in names {
            if let value = udev_device_get_property_value(device, name) {
                found[name] = String(cString: value)
            }
        }
        return found
    }

    /// The input devices udev marks `ID_INPUT_ACCELEROMETER=1` that have a
    /// node, with their properties: how evdev motion sensors are found
    /// without opening any other input device (keyboards included).
    /// `name` is the parent input device's `name` attribute (what
    /// EVIOCGNAME returns), read from sysfs without opening the node.
    static func udevInputAccelerometers() -> [(node: String, name: String?, properties: [String: String])] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_ACCELEROMETER", "1")
        udev_enumerate_scan_devices(enumerate)
        var found: [(node: String, name: String?, properties: [String: String])] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let path = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, path) else { continue }
            defer { udev_device_unref(device) }
            guard let node = string(udev_device_get_devnode(device)) else { continue }
            var properties: [String: String] = [:]
            var property = udev_device_get_properties_list_entry(device)
            while let item = property {
                if let name = string(udev_list_entry_get_name(item)) {
                    properties[name] = string(udev_list_entry_get_value(item)) ?? ""
                }
                property = udev_list_entry_get_next(item)
            }
            let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
            let name = parent.flatMap { string(udev_device_get_sysattr_value($0, "name")) }
            found.append((node, name?.trimmingASCIIWhitespace(), properties))
        }
        return found
    }

    /// The sysfs path of `/sys/bus/iio/devices/<sysname>` as udev knows it
    /// (e.g. "/sys/devices/…/HID-SENSOR-200073.2.auto/iio:device0"); nil when
    /// udev cannot be reached or the device is unknown.
    static func udevSyspath(sysname: String) -> String? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_subsystem_sysname(udev, "iio", sysname) else { return nil }
        defer { udev_device_unref(device) }
        return string(udev_device_get_syspath(device))
    }

    // MARK: Helpers

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// Reads attribute text through a libiio reader returning bytes or −errno.
    private static func readText(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int) -> Result<String, Errno> {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
            guard let base = buffer.baseAddress else { return .failure(Errno(ENOMEM)) }
            let count = read(base, buffer.count)
            if count < 0 { return .failure(Errno(Int32(-count))) }
            base[min(count, buffer.count - 1)] = 0
            return .success(String(cString: base))
        }
    }
}
