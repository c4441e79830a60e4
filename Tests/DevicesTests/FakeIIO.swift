@testable import Devices
import Glibc

/// An in-process libiio: devices, channels and buffers as Swift objects,
/// so that device logic (fallback, reopening, gyro pairing) runs without
/// umockdev. Used by one thread at a time (the test's, then the capture
/// thread's until `finished()`).
final class FakeIIO: IIOBackend, @unchecked Sendable {
    final class Channel {
        let id: String
        let scanIndex: Int
        var isScanElement: Bool
        var attributes: [String: String]
        var enabled = false
        let format: ScanElementType

        init(_ id: String, index: Int, scanElement: Bool = true, attributes: [String: String] = [:],
             format: ScanElementType = ScanElementType(bigEndian: false, signed: true, bits: 16, storageBits: 16,
                                                       shift: 0)) {
            self.id = id
            scanIndex = index
            isScanElement = scanElement
            self.attributes = attributes
            self.format = format
        }
    }

    final class Device {
        let id: String
        let name: String?
        var label: String?
        var isTrigger = false
        var attributes: [String: String]
        var channels: [Channel]
        /// Why creating a buffer fails, nil when it works.
        var refuseBuffer: Errno?
        /// Whether refills deliver scans (else they time out).
        var delivers = true
        var scansDelivered = 0
        /// Reads of `raw` answer ENODEV once this many were made.
        var readsBeforeGone: Int?
        var reads = 0
        /// `buffer/` attributes the driver has (nil: none) and what was written to them, in order.
        var bufferAttributes: [String: String]?
        var bufferWrites: [String] = []
        /// The capacity of each buffer created, in scans, and whether the newest is non-blocking.
        var buffersCreated: [Int] = []
        var nonBlocking = false

        init(_ id: String, name: String?, attributes: [String: String] = [:], channels: [Channel]) {
            self.id = id
            self.name = name
            self.attributes = attributes
            self.channels = channels
        }
    }

    var devices: [Device]
    /// Contexts fail with ENOENT this many more times.
    var contextFailures = 0
    /// How many contexts fail after a device went.
    var failuresWhileGone = 0
    var contextsCreated = 0
    /// A device that produces a scan every `scanPeriodNanoseconds` on a
    /// virtual clock (`CaptureWaiting`) when set: non-blocking refills take
    /// the scans due by now, and waits move the clock on instead of sleeping.
    var virtualNanoseconds: Int64?
    var scanPeriodNanoseconds: Int64 = 1_000_000
    /// The virtual times at which waits ended (the reader's wake-ups).
    var wakes: [Int64] = []
    /// The raw value of a channel (by id) in the scan numbered from 1, when
    /// set; else the channel's `raw` attribute.
    var rawOfScan: (@Sendable (_ scan: Int, _ channel: String) -> Int16)?
    private var objects: [AnyObject] = []
    private var scan: UnsafeMutableRawBufferPointer = .allocate(byteCount: 64 * 1024, alignment: 8)
    /// The bytes the last refill delivered.
    private var filled = 0

    init(_ devices: [Device]) { self.devices = devices }
    deinit { scan.deallocate() }

    /// An accelerometer with x, y, z (and a timestamp) as scan elements.
    static func accelerometer(_ id: String, name: String, rateHertz: String = "100", extra: [Channel] = []) -> Device {
        let axes = ["x", "y", "z"].enumerated().map { index, axis in
            Channel("accel_\(axis)", index: index, attributes: ["raw": "\(index + 1)", "scale": "0.5"])
        }
        let timestamp = Channel("timestamp", index: 3, format: ScanElementType(bigEndian: false, signed: true, bits: 64,
                                                                               storageBits: 64, shift: 0))
        return Device(id, name: name, attributes: ["sampling_frequency": rateHertz],
                      channels: axes + [timestamp] + extra)
    }

    /// A gyroscope's x, y, z channels, from scan index `first`.
    static func gyroAxes(from first: Int = 0) -> [Channel] {
        ["x", "y", "z"].enumerated().map { index, axis in
            Channel("anglvel_\(axis)", index: first + index, attributes: ["raw": "\(10 * (index + 1))", "scale": "0.01"])
        }
    }

    // MARK: Handles: the index of the object among those handed out, plus one.

    private func handle(_ object: AnyObject) -> OpaquePointer {
        let index = objects.firstIndex { $0 === object } ?? { objects.append(object); return objects.count - 1 }()
        return OpaquePointer(bitPattern: index + 1)!
    }

    private func object<T>(_ pointer: OpaquePointer) -> T { objects[Int(bitPattern: pointer) - 1] as! T }
    private func device(_ handle: IIODeviceHandle) -> Device { object(handle.pointer) }
    private func channel(_ handle: IIOChannelHandle) -> Channel { object(handle.pointer) }
    private func owner(_ channel: IIOChannelHandle) -> Device {
        let wanted = self.channel(channel)
        return devices.first { $0.channels.contains { $0 === wanted } }!
    }

    // MARK: IIOBackend

    func createContext(uri: String) -> Result<IIOContextHandle, Errno> {
        if contextFailures > 0 {
            contextFailures -= 1
            return .failure(Errno(ENOENT))
        }
        contextsCreated += 1
        return .success(IIOContextHandle(pointer: handle(self)))
    }

    func destroyContext(_ context: IIOContextHandle) {}
    func contextName(_ context: IIOContextHandle) -> String { "fake" }
    func setTimeout(_ context: IIOContextHandle, milliseconds: UInt32) -> Int32 { 0 }
    func devices(_ context: IIOContextHandle) -> [IIODeviceHandle] { devices.map { IIODeviceHandle(pointer: handle($0)) } }
    func deviceID(_ device: IIODeviceHandle) -> String { self.device(device).id }
    func deviceName(_ device: IIODeviceHandle) -> String? { self.device(device).name }
    func deviceLabel(_ device: IIODeviceHandle) -> String? { self.device(device).label }
    func isTrigger(_ device: IIODeviceHandle) -> Bool { self.device(device).isTrigger }

    func channels(_ device: IIODeviceHandle) -> [IIOChannelHandle] {
        self.device(device).channels.map { IIOChannelHandle(pointer: handle($0)) }
    }

    func inputChannel(_ device: IIODeviceHandle, id: String) -> IIOChannelHandle? {
        self.device(device).channels.first { $0.id == id }.map { IIOChannelHandle(pointer: handle($0)) }
    }

    func hasDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool {
        self.device(device).attributes[name] != nil
    }

    func readDeviceAttribute(_ device: IIODeviceHandle, _ name: String) -> Result<String, Errno> {
        self.device(device).attributes[name].map { .success($0) } ?? .failure(Errno(ENOENT))
    }

    func writeDeviceAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno? {
        self.device(device).attributes[name] = value
        return nil
    }

    func currentTriggerName(_ device: IIODeviceHandle) -> String? { nil }
    func setTrigger(_ device: IIODeviceHandle, _ trigger: IIODeviceHandle?) -> Errno? { nil }
    func isScanElement(_ channel: IIOChannelHandle) -> Bool { self.channel(channel).isScanElement }
    func scanIndex(_ channel: IIOChannelHandle) -> Int { self.channel(channel).scanIndex }
    func dataFormat(_ channel: IIOChannelHandle) -> ScanElementType { self.channel(channel).format }

    func channelAttributeFile(_ channel: IIOChannelHandle, _ name: String) -> String? {
        "in_\(self.channel(channel).id)_\(name)"
    }

    func localAttributePath(_ channel: IIOChannelHandle, _ name: String) -> String? { nil }

    func hasChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Bool {
        self.channel(channel).attributes[name] != nil
    }

    func readChannelAttribute(_ channel: IIOChannelHandle, _ name: String) -> Result<String, Errno> {
        let device = owner(channel)
        if name == "raw", let limit = device.readsBeforeGone {
            device.reads += 1
            if device.reads > limit {
                // Gone: the next contexts fail, then it is back (and stays).
                device.readsBeforeGone = nil
                contextFailures = failuresWhileGone
                return .failure(Errno(ENODEV))
            }
        }
        return self.channel(channel).attributes[name].map { .success($0) } ?? .failure(Errno(ENOENT))
    }

    func enable(_ channel: IIOChannelHandle) { self.channel(channel).enabled = true }
    func disable(_ channel: IIOChannelHandle) { self.channel(channel).enabled = false }

    func hasBufferAttribute(_ device: IIODeviceHandle, _ name: String) -> Bool {
        self.device(device).bufferAttributes?[name] != nil
    }

    func writeBufferAttribute(_ device: IIODeviceHandle, _ name: String, _ value: String) -> Errno? {
        let device = self.device(device)
        guard device.bufferAttributes?[name] != nil else { return Errno(ENOENT) }
        device.bufferAttributes?[name] = value
        device.bufferWrites.append("\(name)=\(value)")
        return nil
    }

    func createBuffer(_ device: IIODeviceHandle, samples: Int) -> Result<IIOBufferHandle, Errno> {
        if let refusal = self.device(device).refuseBuffer { return .failure(refusal) }
        self.device(device).buffersCreated.append(samples)
        self.device(device).nonBlocking = false
        return .success(IIOBufferHandle(pointer: device.pointer))
    }

    func setNonBlocking(_ buffer: IIOBufferHandle) -> Errno? {
        let device: Device = object(buffer.pointer)
        device.nonBlocking = true
        return nil
    }

    func destroyBuffer(_ buffer: IIOBufferHandle) {}
    /// A descriptor only on the virtual clock, where `wait` stands in for poll(2).
    func pollDescriptor(_ buffer: IIOBufferHandle) -> Int32? { virtualNanoseconds == nil ? nil : 1_000_000 }
    func cancel(_ buffer: IIOBufferHandle) {}

    /// Blocking: one scan, each enabled channel's `raw` value, the timestamp
    /// counting scans (ms). Non-blocking on the virtual clock: every scan
    /// due by now, up to the buffer's capacity, or EAGAIN.
    func refill(_ buffer: IIOBufferHandle) -> Result<Int, Errno> {
        let device: Device = object(buffer.pointer)
        guard device.delivers else { return .failure(Errno(ETIMEDOUT)) }
        let size = sampleSize(IIODeviceHandle(pointer: buffer.pointer))
        var count = 1
        if device.nonBlocking, let now = virtualNanoseconds {
            let due = Int(now / scanPeriodNanoseconds) - device.scansDelivered
            count = min(due, device.buffersCreated.last ?? 1, scan.count / size)
            guard count > 0 else { return .failure(Errno(EAGAIN)) }
        }
        for index in 0..<count {
            device.scansDelivered += 1
            var offset = 0
            for channel in enabledChannels(device) {
                let channelSize = channel.format.storageBits / 8
                offset = (offset + channelSize - 1) / channelSize * channelSize
                if channelSize == 8 {
                    scan.storeBytes(of: Int64(device.scansDelivered) * scanPeriodNanoseconds,
                                    toByteOffset: index * size + offset, as: Int64.self)
                } else {
                    let raw = rawOfScan?(device.scansDelivered, channel.id)
                        ?? channel.attributes["raw"].flatMap { Int16($0) } ?? 0
                    scan.storeBytes(of: raw, toByteOffset: index * size + offset, as: Int16.self)
                }
                offset += channelSize
            }
        }
        filled = count * size
        return .success(filled)
    }

    func bufferBytes(_ buffer: IIOBufferHandle) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: scan[..<filled])
    }

    func sampleSize(_ device: IIODeviceHandle) -> Int {
        var offset = 0, largest = 1
        for channel in enabledChannels(self.device(device)) {
            let size = channel.format.storageBits / 8
            offset = (offset + size - 1) / size * size + size
            largest = max(largest, size)
        }
        return (offset + largest - 1) / largest * largest
    }

    private func enabledChannels(_ device: Device) -> [Channel] {
        device.channels.filter { $0.enabled && $0.isScanElement }.sorted { $0.scanIndex < $1.scanIndex }
    }
}

extension FakeIIO: CaptureWaiting {
    func nanoseconds() -> Int64 { virtualNanoseconds ?? 0 }

    /// Moves the virtual clock to the deadline, or to the next scan when
    /// waiting for data and it comes first.
    func wait(untilNanoseconds deadline: Int64, readable: Int32?, cancel: Int32) -> CaptureWaitEnd {
        let now = virtualNanoseconds ?? 0
        var end = CaptureWaitEnd.deadline
        var time = max(now, deadline)
        if readable != nil {
            let next = (now / scanPeriodNanoseconds + 1) * scanPeriodNanoseconds
            if next <= deadline {
                time = next
                end = .readable
            }
        }
        virtualNanoseconds = time
        wakes.append(time)
        return end
    }
}
