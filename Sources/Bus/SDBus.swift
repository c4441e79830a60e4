import CSDBus
import CTiltBus
import Glibc

/// The only file that calls sd-bus (libsystemd): one connection, used from
/// one thread at a time (sd-bus is not thread-safe). Everything above it
/// sees `BusValue`s and `TiltBusError`s.
final class SDBus {
    private let bus: OpaquePointer
    private let busName: String
    /// Slots and the boxes their callbacks point into, kept alive with the bus.
    private var slots: [OpaquePointer?] = []
    private var boxes: [AnyObject] = []

    /// Connects to `address` as a client.
    init(_ address: BusAddress) throws {
        busName = address.description
        var opened: OpaquePointer?
        var status: Int32
        switch address {
        case .system: status = sd_bus_open_system(&opened)
        case .session: status = sd_bus_open_user(&opened)
        case .address(let text):
            status = sd_bus_new(&opened)
            if status >= 0 { status = sd_bus_set_address(opened, text) }
            if status >= 0 { status = sd_bus_set_bus_client(opened, 1) }
            if status >= 0 { status = sd_bus_start(opened) }
            if status < 0 { sd_bus_unref(opened) }
        }
        guard status >= 0, let opened else {
            // sd-bus falls back to $XDG_RUNTIME_DIR/bus without the variable; say which was missing.
            if address == .session, getenv("DBUS_SESSION_BUS_ADDRESS") == nil {
                throw TiltBusError.sessionAddressUnset(runtimeDirectory: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) },
                                                       reason: SDBus.describe(status))
            }
            throw TiltBusError.busUnavailable(bus: busName, reason: SDBus.describe(status))
        }
        bus = opened
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Takes `name`, failing if another connection owns it (no queueing).
    func requestName(_ name: String) throws {
        let status = sd_bus_request_name(bus, name, 0)
        if status == -EEXIST {
            throw TiltBusError.nameTaken(name: name, bus: busName)
        }
        if status == -EACCES || status == -EPERM {
            throw TiltBusError.nameRefused(name: name, bus: busName)
        }
        try check(status, "RequestName \(name)")
    }

    /// Exports `handler` at `path` under `interface` with CTiltBus's vtable.
    func exportObject(path: String, interface: String, handler: BusObjectHandler) throws {
        let box = HandlerBox(handler)
        let table = UnsafeMutablePointer<tiltbus_handler>.allocate(capacity: 1)
        table.initialize(to: tiltbus_handler(
            context: Unmanaged.passUnretained(box).toOpaque(),
            get_property: { context, name, reply, _ in
                let box = Unmanaged<HandlerBox>.fromOpaque(context!).takeUnretainedValue()
                guard let name, let value = box.handler?.busProperty(String(cString: name)) else { return -ENOENT }
                return SDBus.append(value, to: reply)
            },
            call_method: { context, member, call, error in
                let box = Unmanaged<HandlerBox>.fromOpaque(context!).takeUnretainedValue()
                let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? ""
                let result = box.handler?.busMethod(member.map { String(cString: $0) } ?? "", sender: sender,
                                                    user: SDBus.senderUser(of: call))
                    ?? .failed(name: "org.freedesktop.DBus.Error.Failed", message: "the service is stopping")
                switch result {
                case .done:
                    var reply: OpaquePointer?
                    var status = sd_bus_message_new_method_return(call, &reply)
                    if status >= 0 { status = sd_bus_send(nil, reply, nil) }
                    sd_bus_message_unref(reply)
                    return status
                case .failed(let name, let message):
                    return sd_bus_error_set(error, name, message)
                }
            }))
        box.table = table
        var slot: OpaquePointer?
        try check(tiltbus_add_object(bus, &slot, path, interface, table), "exporting \(path)")
        slots.append(slot)
        boxes.append(box)
    }

    /// The effective uid of a call's sender: from the message's own
    /// credentials, else asked of the bus (GetConnectionCredentials).
    private static func senderUser(of call: OpaquePointer?) -> UInt32? {
        var creds: OpaquePointer?
        guard sd_bus_query_sender_creds(call, UInt64(SD_BUS_CREDS_EUID), &creds) >= 0 else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var user: uid_t = 0
        guard sd_bus_creds_get_euid(creds, &user) >= 0 else { return nil }
        return user
    }

    /// Calls `body(name, oldOwner, newOwner)` for every NameOwnerChanged.
    func watchNameOwners(_ body: @escaping (String, String, String) -> Void) throws {
        try match(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                  member: "NameOwnerChanged") { message in
            guard let name = SDBus.readString(message), let old = SDBus.readString(message),
                  let new = SDBus.readString(message) else { return }
            body(name, old, new)
        }
    }

    /// Calls `body(interface, changed)` for each PropertiesChanged from `path`.
    func watchPropertiesChanged(path: String, _ body: @escaping (String, [String: BusValue]) -> Void) throws {
        try match(sender: nil, path: path, interface: "org.freedesktop.DBus.Properties",
                  member: "PropertiesChanged") { message in
            guard let interface = SDBus.readString(message) else { return }
            body(interface, SDBus.readDictionary(message))
        }
    }

    /// Sends PropertiesChanged for `changes` to `destination` only.
    func emitPropertiesChanged(path: String, interface: String, changes: [(String, BusValue)],
                               to destination: String) throws {
        var message: OpaquePointer?
        try check(sd_bus_message_new_signal(bus, &message, path, "org.freedesktop.DBus.Properties",
                                            "PropertiesChanged"), "PropertiesChanged")
        defer { sd_bus_message_unref(message) }
        var status = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), interface)
        if status >= 0 { status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}") }
        for (name, value) in changes where status >= 0 {
            status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv")
            if status >= 0 { status = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), name) }
            if status >= 0 { status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), value.signature) }
            if status >= 0 { status = SDBus.append(value, to: message) }
            if status >= 0 { status = sd_bus_message_close_container(message) }
            if status >= 0 { status = sd_bus_message_close_container(message) }
        }
        if status >= 0 { status = sd_bus_message_close_container(message) }
        if status >= 0 { status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s") }
        if status >= 0 { status = sd_bus_message_close_container(message) }
        if status >= 0 { status = sd_bus_message_set_destination(message, destination) }
        if status >= 0 { status = sd_bus_send(bus, message, nil) }
        try check(status, "PropertiesChanged to \(destination)")
    }

    /// Calls a method without arguments; returns the reply's a{sv} if it has one.
    @discardableResult
    func call(destination: String, path: String, interface: String, member: String,
              argument: String? = nil) throws -> [String: BusValue] {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, destination, path, interface, member), member)
        defer { sd_bus_message_unref(message) }
        if let argument {
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), argument), member)
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let status = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        defer { sd_bus_message_unref(reply) }
        guard status >= 0 else {
            let text = error.message.map { String(cString: $0) } ?? SDBus.describe(status)
            throw TiltBusError.callFailed(member: member, destination: destination, reason: text)
        }
        return sd_bus_message_has_signature(reply, "a{sv}") > 0 ? SDBus.readDictionary(reply) : [:]
    }

    /// Sends org.freedesktop.DBus.Peer.Ping to `destination` without
    /// waiting; `done(true)` runs (on this connection's thread, from
    /// `processAvailable`) when it answers, `done(false)` when it answers
    /// with an error, is gone, or does not answer within `timeoutMicroseconds`.
    /// Every D-Bus library answers Ping on its own, but only while its
    /// program reads its connection.
    func ping(_ destination: String, timeoutMicroseconds: UInt64, _ done: @escaping (Bool) -> Void) throws {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, destination, "/", "org.freedesktop.DBus.Peer", "Ping"),
                  "Ping to \(destination)")
        defer { sd_bus_message_unref(message) }
        let box = Unmanaged.passRetained(ReplyBox(done)).toOpaque()
        // A floating slot (nil): sd-bus calls back once and then frees it.
        let status = sd_bus_call_async(bus, nil, message, { reply, context, _ in
            let box = Unmanaged<ReplyBox>.fromOpaque(context!).takeRetainedValue()
            box.done(sd_bus_message_is_method_error(reply, nil) == 0)
            return 0
        }, box, timeoutMicroseconds)
        if status < 0 { Unmanaged<ReplyBox>.fromOpaque(box).release() }
        try check(status, "Ping to \(destination)")
    }

    /// The unique name that owns `name` now, or nil if none does.
    func owner(of name: String) -> String? {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", "GetNameOwner") >= 0 else { return nil }
        defer { sd_bus_message_unref(message) }
        var reply: OpaquePointer?
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), name) >= 0,
              sd_bus_call(bus, message, 5_000_000, nil, &reply) >= 0 else { return nil }
        return SDBus.readString(reply)
    }

    /// Dispatches every message that has arrived.
    func processAvailable() throws {
        while true {
            let status = sd_bus_process(bus, nil)
            try check(status, "reading from the bus")
            if status == 0 { return }
        }
    }

    /// Waits until the bus has work, `extra` is readable, or `limitMilliseconds`
    /// pass (-1: no limit); returns true when `extra` is readable.
    func wait(orReadable extra: Int32, limitMilliseconds: Int32 = -1) throws -> Bool {
        let events = sd_bus_get_events(bus)
        try check(events, "waiting on the bus")
        var fds = [pollfd(fd: sd_bus_get_fd(bus), events: Int16(events), revents: 0),
                   pollfd(fd: extra, events: Int16(POLLIN), revents: 0)]
        var timeout = limitMilliseconds
        var deadline: UInt64 = 0
        if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            let busMilliseconds = Int32(clamping: deadline > nowMicroseconds ? (deadline - nowMicroseconds + 999) / 1000 : 0)
            timeout = timeout < 0 ? busMilliseconds : min(timeout, busMilliseconds)
        }
        let ready = poll(&fds, 2, timeout)
        if ready < 0 && errno != EINTR { try check(-errno, "waiting on the bus") }
        return ready > 0 && fds[1].revents != 0
    }

    // MARK: - Messages

    private func match(sender: String?, path: String, interface: String, member: String,
                       _ body: @escaping (OpaquePointer?) -> Void) throws {
        let box = MessageBox(body)
        var slot: OpaquePointer?
        try check(sd_bus_match_signal(bus, &slot, sender, path, interface, member, { message, context, _ in
            Unmanaged<MessageBox>.fromOpaque(context!).takeUnretainedValue().body(message)
            return 0
        }, Unmanaged.passUnretained(box).toOpaque()), "watching \(member)")
        slots.append(slot)
        boxes.append(box)
    }

    /// Appends `value` (its own signature) to `message`; returns sd-bus's status.
    private static func append(_ value: BusValue, to message: OpaquePointer?) -> Int32 {
        func put<T: BitwiseCopyable>(_ type: Character, _ value: T) -> Int32 {
            withUnsafePointer(to: value) { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) }
        }
        switch value {
        case .bool(let flag): return put("b", Int32(flag ? 1 : 0))
        case .double(let number): return put("d", number)
        case .uint64(let number): return put("t", number)
        case .string(let text): return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), text)
        case .pairs(let pairs):
            var status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "(dd)")
            for pair in pairs where status >= 0 {
                status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "r")), "dd")
                if status >= 0 { status = put("d", pair.first) }
                if status >= 0 { status = put("d", pair.second) }
                if status >= 0 { status = sd_bus_message_close_container(message) }
            }
            return status >= 0 ? sd_bus_message_close_container(message) : status
        case .doubles(let numbers):
            var status = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "d")
            for number in numbers where status >= 0 { status = put("d", number) }
            return status >= 0 ? sd_bus_message_close_container(message) : status
        }
    }

    private static func readString(_ message: OpaquePointer?) -> String? {
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    private static func read<T: BitwiseCopyable>(_ type: Character, _ message: OpaquePointer?, as: T.Type, zero: T) -> T? {
        var value = zero
        return sd_bus_message_read_basic(message, CChar(type.asciiValue!), &value) > 0 ? value : nil
    }

    /// Reads an a{sv}; values of signatures tiltd does not use are skipped.
    private static func readDictionary(_ message: OpaquePointer?) -> [String: BusValue] {
        var result: [String: BusValue] = [:]
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return result }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            if let key = readString(message), sd_bus_message_peek_type(message, &type, &contents) > 0, let contents {
                let signature = String(cString: contents)
                if sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), contents) > 0 {
                    result[key] = readValue(message, signature: signature)
                    sd_bus_message_exit_container(message)
                }
            }
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
        return result
    }

    private static func readValue(_ message: OpaquePointer?, signature: String) -> BusValue? {
        switch signature {
        case "b": return read("b", message, as: Int32.self, zero: 0).map { .bool($0 != 0) }
        case "d": return read("d", message, as: Double.self, zero: 0).map { .double($0) }
        case "t": return read("t", message, as: UInt64.self, zero: 0).map { .uint64($0) }
        case "u": return read("u", message, as: UInt32.self, zero: 0).map { .uint64(UInt64($0)) }
        case "s": return readString(message).map { .string($0) }
        case "a(dd)":
            guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(dd)") > 0 else { return nil }
            var pairs: [BusValue.Pair] = []
            while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), "dd") > 0 {
                pairs.append(BusValue.Pair(read("d", message, as: Double.self, zero: 0) ?? .nan,
                              read("d", message, as: Double.self, zero: 0) ?? .nan))
                sd_bus_message_exit_container(message)
            }
            sd_bus_message_exit_container(message)
            return .pairs(pairs)
        case "ad":
            guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "d") > 0 else { return nil }
            var numbers: [Double] = []
            while let number = read("d", message, as: Double.self, zero: 0) { numbers.append(number) }
            sd_bus_message_exit_container(message)
            return .doubles(numbers)
        default:
            sd_bus_message_skip(message, signature)
            return nil
        }
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status < 0 else { return }
        if status == -ECONNRESET || status == -ENOTCONN {
            throw TiltBusError.disconnected(bus: busName)
        }
        throw TiltBusError.busFailed(bus: busName, operation: what, reason: SDBus.describe(status))
    }

    private static func describe(_ status: Int32) -> String {
        String(cString: strerror(-status))
    }
}

/// What a `ping` calls back once its answer (or its failure) comes.
private final class ReplyBox {
    let done: (Bool) -> Void
    init(_ done: @escaping (Bool) -> Void) { self.done = done }
}
