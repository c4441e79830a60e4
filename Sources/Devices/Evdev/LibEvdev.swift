import CLibEvdev
#if canImport(Glibc)
import Glibc
#endif

/// Every raw libevdev call tiltd makes (and the POSIX calls on the event
/// node it needs around them: open, poll, read, the EVIOCGABS ioctl, close),
/// and nothing else. libevdev describes the device; the events are read
/// here (`readNode`), not with `libevdev_next_event` (`PadEventBuffer`).
///
/// libevdev returns `-errno` on failure; callers above this file turn that
/// into `EvdevError`s. Pointers stay `OpaquePointer`s owned by `MotionPad`.
enum LibEvdev {
    /// One event as read: type, code, value and the kernel's event time.
    struct Event: Equatable {
        var type: UInt16
        var code: UInt16
        var value: Int32
        var timeMicroseconds: Int64
    }

    static let eventSyn = UInt16(EV_SYN)
    static let eventAbs = UInt16(EV_ABS)
    static let eventMsc = UInt16(EV_MSC)
    static let synReport = UInt16(SYN_REPORT)
    static let synDropped = UInt16(SYN_DROPPED)
    static let mscTimestamp = UInt16(MSC_TIMESTAMP)
    static let absX = UInt16(ABS_X), absY = UInt16(ABS_Y), absZ = UInt16(ABS_Z)
    static let absRX = UInt16(ABS_RX), absRY = UInt16(ABS_RY), absRZ = UInt16(ABS_RZ)

    /// Opens an event node read-only and non-blocking; the corresponding C
    /// function is `open`.
    static func openNode(_ path: String) -> Result<Int32, Errno> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        return descriptor >= 0 ? .success(descriptor) : .failure(Errno(errno))
    }

    /// Closes a node. Only `MotionPad` calls this, once.
    static func closeNode(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Reads the device's description from the node; the corresponding C
    /// function is `libevdev_new_from_fd`.
    static func newDevice(descriptor: Int32) -> Result<OpaquePointer, Errno> {
        var device: OpaquePointer?
        let status = libevdev_new_from_fd(descriptor, &device)
        guard status == 0, let device else { return .failure(Errno(status < 0 ? -status : EINVAL)) }
        return .success(device)
    }

    /// Frees a device. Only `MotionPad` calls this, once.
    static func freeDevice(_ device: OpaquePointer) {
        libevdev_free(device)
    }

    static func name(_ device: OpaquePointer) -> String {
        libevdev_get_name(device).map { String(cString: $0) } ?? ""
    }

    static func vendor(_ device: OpaquePointer) -> Int { Int(libevdev_get_id_vendor(device)) }
    static func product(_ device: OpaquePointer) -> Int { Int(libevdev_get_id_product(device)) }
    static func bus(_ device: OpaquePointer) -> Int { Int(libevdev_get_id_bustype(device)) }

    /// True when the device has `INPUT_PROP_ACCELEROMETER`.
    static func isAccelerometer(_ device: OpaquePointer) -> Bool {
        libevdev_has_property(device, UInt32(INPUT_PROP_ACCELEROMETER)) == 1
    }

    static func hasCode(_ device: OpaquePointer, type: UInt16, code: UInt16) -> Bool {
        libevdev_has_event_code(device, UInt32(type), UInt32(code)) == 1
    }

    /// An absolute axis's range, fuzz, flat and resolution; nil when absent.
    static func axis(_ device: OpaquePointer, code: UInt16) -> EvdevAxis? {
        guard let info = libevdev_get_abs_info(device, UInt32(code)) else { return nil }
        return EvdevAxis(code: code, minimum: Int(info.pointee.minimum), maximum: Int(info.pointee.maximum),
                         fuzz: Int(info.pointee.fuzz), flat: Int(info.pointee.flat),
                         resolution: Int(info.pointee.resolution))
    }

    /// The axis's current value as libevdev last read it.
    static func value(_ device: OpaquePointer, code: UInt16) -> Int32 {
        libevdev_get_event_value(device, UInt32(EV_ABS), UInt32(code))
    }

    /// Asks for CLOCK_MONOTONIC event times; returns the errno when refused
    /// (umockdev cannot emulate `EVIOCSCLOCKID`, SPEC §6).
    static func useMonotonicClock(_ device: OpaquePointer) -> Errno? {
        let status = libevdev_set_clock_id(device, CLOCK_MONOTONIC)
        return status == 0 ? nil : Errno(status < 0 ? -status : EINVAL)
    }

    /// The size of one `input_event` as the kernel writes it.
    static let eventSize = MemoryLayout<input_event>.size

    /// Reads what the node has into `bytes`: the count, 0 at end of file, nil
    /// when nothing is there now (EAGAIN); the corresponding C function is
    /// `read`. tiltd reads events itself rather than through
    /// `libevdev_next_event`, which loses a read that ends inside an event
    /// (`PadEventBuffer` says why).
    static func readNode(_ descriptor: Int32, into bytes: UnsafeMutableRawBufferPointer) -> Result<Int?, Errno> {
        while true {
            let count = read(descriptor, bytes.baseAddress, bytes.count)
            if count >= 0 { return .success(count) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .success(nil) : .failure(Errno(errno))
        }
    }

    /// One event from its `eventSize` bytes as read from the node.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Event {
        var event = input_event()
        withUnsafeMutableBytes(of: &event) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<eventSize])) }
        return Event(type: event.type, code: event.code, value: event.value,
                     timeMicroseconds: Int64(tiltd_input_event_microseconds(&event)))
    }

    /// An absolute axis's current value as the kernel has it (EVIOCGABS),
    /// for resynchronising after SYN_DROPPED.
    static func currentValue(_ descriptor: Int32, code: UInt16) -> Result<Int32, Errno> {
        var value: Int32 = 0
        let status = tiltd_abs_value(descriptor, UInt32(code), &value)
        return status == 0 ? .success(value) : .failure(Errno(-status))
    }

    /// True while the device's sysfs entry exists; the corresponding C
    /// function is `access`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Waits until the node is readable or `milliseconds` pass; returns true
    /// when readable, the errno when polling failed or the node hung up.
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Result<Bool, Errno> {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let count = poll(&entry, 1, milliseconds)
        if count < 0 { return errno == EINTR ? .success(false) : .failure(Errno(errno)) }
        if count == 0 { return .success(false) }
        if entry.revents & Int16(POLLIN) != 0 { return .success(true) }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .failure(Errno(ENODEV)) }
        return .success(false)
    }
}
