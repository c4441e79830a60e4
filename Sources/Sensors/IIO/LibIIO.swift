import Motion
import CLibIIO

/// Every raw libiio and libudev call tiltd makes, and nothing else.
///
/// Pointers stay `OpaquePointer`s; callers above this file turn failures
/// into `IIOError`s that say what failed, where, and what to do. Negative
/// return values of libiio are `-errno` (libiio 0.24 convention).
enum LibIIO {
    // MARK: Contexts

    /// Creates a context; the corresponding C function is
    /// `iio_create_context_from_uri`.
    static func createContext(uri: String) -> Result<OpaquePointer, Errno> {
        tiltd_clear_errno()
        if let context = iio_create_context_from_uri(uri) { return .success(context) }
        let code = tiltd_errno()
        return .failure(Errno(code == 0 ? EINVAL : code))
    }

    /// Frees a context. Only `IIOContext.deinit` calls this.
    static func destroyContext(_ context: OpaquePointer) {
        iio_context_destroy(context)
    }

    /// The backend's name: "local", "network", "usb", "xml".
    static func contextName(_ context: OpaquePointer) -> String {
        string(iio_context_get_name(context)) ?? ""
    }

    /// Sets the timeout of blocking operations (refill, network I/O).
    static func setTimeout(_ context: OpaquePointer, milliseconds: UInt32) -> Int32 {
        iio_context_set_timeout(context, milliseconds)
    }

    static func devices(_ context: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_context_get_devices_count(context)).compactMap { iio_context_get_device(context, $0) }
    }

    // MARK: Devices

    static func deviceID(_ device: OpaquePointer) -> String {
        string(iio_device_get_id(device)) ?? ""
    }

    static func deviceName(_ device: OpaquePointer) -> String? {
        string(iio_device_get_name(device))
    }

    static func deviceLabel(_ device: OpaquePointer) -> String? {
        string(iio_device_get_label(device))
    }

    static func isTrigger(_ device: OpaquePointer) -> Bool {
        iio_device_is_trigger(device)
    }

    static func channels(_ device: OpaquePointer) -> [OpaquePointer] {
        (0..<iio_device_get_channels_count(device)).compactMap { iio_device_get_channel(device, $0) }
    }

    /// An input channel by id ("accel_x"), or nil.
    static func inputChannel(_ device: OpaquePointer, id: String) -> OpaquePointer? {
        iio_device_find_channel(device, id, false)
    }

    static func hasDeviceAttribute(_ device: OpaquePointer, _ name: String) -> Bool {
        iio_device_find_attr(device, name) != nil
    }

    /// Reads a device attribute's text; the C function is `iio_device_attr_read`.
    static func readDeviceAttribute(_ device: OpaquePointer, _ name: String) -> Result<String, Errno> {
        readText { iio_device_attr_read(device, name, $0, $1) }
    }

    /// Writes a device attribute; the C function is `iio_device_attr_write`.
    static func writeDeviceAttribute(_ device: OpaquePointer, _ name: String, _ value: String) -> Errno? {
        let written = iio_device_attr_write(device, name, value)
        return written < 0 ? Errno(Int32(-written)) : nil
    }

    /// The current trigger's name, nil when none is set or it cannot be read.
    static func currentTriggerName(_ device: OpaquePointer) -> String? {
        var trigger: OpaquePointer? = nil
        guard iio_device_get_trigger(device, &trigger) == 0, let trigger else { return nil }
        return deviceName(trigger)
    }

    /// Sets (or with nil clears) the device's trigger: `iio_device_set_trigger`.
    static func setTrigger(_ device: OpaquePointer, _ trigger: OpaquePointer?) -> Errno? {
        let status = iio_device_set_trigger(device, trigger)
        return status < 0 ? Errno(-status) : nil
    }

    // MARK: Channels

    static func channelID(_ channel: OpaquePointer) -> String {
        string(iio_channel_get_id(channel)) ?? ""
    }

    static func isScanElement(_ channel: OpaquePointer) -> Bool {
        iio_channel_is_scan_element(channel)
    }

    static func scanIndex(_ channel: OpaquePointer) -> Int {
        Int(iio_channel_get_index(channel))
    }

    /// The channel's scan element type as libiio parsed `scan_elements/*_type`.
    static func dataFormat(_ channel: OpaquePointer) -> ScanElementType {
        let format = iio_channel_get_data_format(channel).pointee
        return ScanElementType(bigEndian: format.is_be, signed: format.is_signed,
                               bits: Int(format.bits), storageBits: Int(format.length),
                               shift: Int(format.shift))
    }

    /// The sysfs file behind the channel attribute `name`, which is also the
    /// one `iio_channel_attr_read` reads when a per-axis and a shared file
    /// both appear as "scale".
    static func channelAttributeFile(_ channel: OpaquePointer, _ name: String) -> String? {
        string(iio_channel_attr_get_filename(channel, name))
    }

    /// The sysfs path of the channel attribute `name` when its context is
    /// the local backend (`/sys/bus/iio/devices/iio:deviceN/in_accel_x_raw`,
    /// the file libiio's local backend opens itself), else nil: over iiod
    /// or USB only libiio can read it.
    static func localAttributePath(_ channel: OpaquePointer, _ name: String) -> String? {
        guard let device = iio_channel_get_device(channel),
              let context = iio_device_get_context(device),
              string(iio_context_get_name(context)) == "local",
              let id = string(iio_device_get_id(device)),
              let file = channelAttributeFile(channel, name) else { return nil }
        return "/sys/bus/iio/devices/\(id)/\(file)"
    }

    static func hasChannelAttribute(_ channel: OpaquePointer, _ name: String) -> Bool {
        iio_channel_find_attr(channel, name) != nil
    }

    /// Reads a channel attribute's text; the C function is `iio_channel_attr_read`.
    static func readChannelAttribute(_ channel: OpaquePointer, _ name: String) -> Result<String, Errno> {
        readText { iio_channel_attr_read(channel, name, $0, $1) }
    }

    static func enable(_ channel: OpaquePointer) { iio_channel_enable(channel) }
    static func disable(_ channel: OpaquePointer) { iio_channel_disable(channel) }

    // MARK: Buffers

    /// Creates (and so enables) a buffer of `samples` scans: `iio_device_create_buffer`.
    static func createBuffer(_ device: OpaquePointer, samples: Int) -> Result<OpaquePointer, Errno> {
        tiltd_clear_errno()
        if let buffer = iio_device_create_buffer(device, samples, false) { return .success(buffer) }
        let code = tiltd_errno()
        return .failure(Errno(code == 0 ? EIO : code))
    }

    /// Makes `refill` return EAGAIN at once when no scan is ready instead
    /// of waiting: `iio_buffer_set_blocking_mode`.
    static func setNonBlocking(_ buffer: OpaquePointer) -> Errno? {
        let result = iio_buffer_set_blocking_mode(buffer, false)
        return result < 0 ? Errno(Int32(-result)) : nil
    }

    /// Disables the buffer and frees it: `iio_buffer_destroy`.
    static func destroyBuffer(_ buffer: OpaquePointer) { iio_buffer_destroy(buffer) }

    /// The file descriptor that becomes readable when the buffer has a scan
    /// (`iio_buffer_get_poll_fd`); nil when the backend has none.
    static func pollDescriptor(_ buffer: OpaquePointer) -> Int32? {
        let descriptor = iio_buffer_get_poll_fd(buffer)
        return descriptor < 0 ? nil : descriptor
    }

    /// Wakes a refill blocked in another thread: `iio_buffer_cancel`.
    static func cancel(_ buffer: OpaquePointer) { iio_buffer_cancel(buffer) }

    /// Blocks until the buffer is full or the context timeout passes:
    /// `iio_buffer_refill`. Returns the number of bytes read.
    static func refill(_ buffer: OpaquePointer) -> Result<Int, Errno> {
        let read = iio_buffer_refill(buffer)
        return read < 0 ? .failure(Errno(Int32(-read))) : .success(read)
    }

    /// The bytes the last refill delivered.
    static func bufferBytes(_ buffer: OpaquePointer) -> UnsafeRawBufferPointer {
        guard let start = iio_buffer_start(buffer), let end = iio_buffer_end(buffer) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }

    /// One scan's size in bytes with the currently enabled channels.
    static func sampleSize(_ device: OpaquePointer) -> Int {
        iio_device_get_sample_size(device)
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
            found.append((node, name?.trimmingNewline(), properties))
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
