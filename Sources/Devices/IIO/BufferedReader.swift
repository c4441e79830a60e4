import Motion
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Wording

/// Buffered capture: accel x/y/z and timestamp scan elements read through a
/// libiio buffer.
///
/// Unpaced (`Setting.latency` 0), the buffer holds one scan and
/// `iio_buffer_refill` blocks until it is in (libiio 0.24 blocks until the
/// whole buffer is full), so each sample is delivered as soon as it exists
/// and the reader wakes once per sample.
///
/// Paced, the buffer is non-blocking and holds `capacity` scans: `read`
/// sleeps until the batch it is asked for is due, then takes every scan
/// the kernel holds, each with its own timestamp, so the reader wakes once
/// per batch however the driver signals its data. Where the driver has
/// `buffer/watermark`, it is set to the batch, so the kernel (and a
/// hardware FIFO behind it) also waits for the batch before waking anyone.
final class BufferedReader: @unchecked Sendable {
    // Safe to share: `cancel()` is the only method called from another
    // thread; it touches the buffer handle only under `lock`, which
    // `close()` also holds while destroying it, and writes to `cancelPipe`,
    // which lives as long as the reader.
    private let lock = Mutex<IIOBufferHandle?>(nil)
    private let iio: any IIOBackend
    private let device: IIODeviceHandle
    private let shownName: String
    private let deviceID: String
    let layout: ScanLayout
    /// The clock of the device's timestamps, nil when there is no timestamp element.
    let clock: String?
    /// How many scans a paced buffer holds; nil for the unpaced one-scan buffer.
    let capacity: Int?
    /// The kernel's `buffer/watermark` as set, nil where it was not set.
    private(set) var watermark: Int?
    /// Wakes a paced wait from `cancel()`: a non-blocking, close-on-exec
    /// pipe (read end, write end), (-1, -1) when unpaced.
    private let cancelPipe: (reader: Int32, writer: Int32)
    private let cancelled = Atomic<Bool>(false)
    /// How long a paced read waits for a scan before it fails with ETIMEDOUT
    /// (what the context's timeout is to a blocking refill).
    var timeoutNanoseconds: Int64 = 1_000_000_000
    /// The bytes of a scan split across two reads.
    private var carried: [UInt8] = []

    /// Enables the channels, sets the trigger and clock, and creates the buffer.
    ///
    /// - Throws: `IIOError`: EACCES without the udev rule, EBUSY when another
    ///   process owns the buffer, EINVAL when the device refuses.
    /// - Parameter gyroAxes: the gyro's x, y, z channels when they are on
    ///   the same device (one scan carries both), else empty.
    /// - Parameters:
    ///   - capacity: nil for the unpaced one-scan blocking buffer, else
    ///     how many scans the paced non-blocking buffer holds.
    ///   - watermark: the scans the kernel gathers before it reports the
    ///     buffer readable, where the driver has `buffer/watermark`.
    init(found: AccelerometerDiscovery.Found, context: IIOContext, gyroAxes: [IIOChannelHandle] = [],
         capacity: Int? = nil, watermark: Int? = nil, notice: (Diagnostic) -> Void) throws {
        let iio = context.iio
        self.iio = iio
        device = found.device
        shownName = found.info.displayName
        deviceID = found.info.id
        self.capacity = capacity
        var ends: [Int32] = [-1, -1]
        if capacity != nil, pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        cancelPipe = (ends[0], ends[1])
        let info = found.info

        for channel in iio.channels(device) where iio.isScanElement(channel) { iio.disable(channel) }
        for axis in found.axes + gyroAxes { iio.enable(axis) }
        let axes = found.axes.map { ScanLayout.Element(index: iio.scanIndex($0), type: iio.dataFormat($0)) }
        let gyro = gyroAxes.map { ScanLayout.Element(index: iio.scanIndex($0), type: iio.dataFormat($0)) }
        var timestampElement: ScanLayout.Element? = nil
        if let timestamp = found.timestamp, iio.isScanElement(timestamp) {
            iio.enable(timestamp)
            timestampElement = .init(index: iio.scanIndex(timestamp), type: iio.dataFormat(timestamp))
        }
        layout = ScanLayout(axes: axes, timestamp: timestampElement, gyro: gyro)
        let libiioSize = iio.sampleSize(device)
        guard libiioSize == layout.scanBytes else {
            throw IIOError("laying out scans", on: shownName, errno: Errno(EINVAL),
                           fix: "libiio says \(libiioSize) bytes per scan, tiltd computed \(layout.scanBytes): "
                               + "use \(Setting.mode) poll and report the device's scan_elements")
        }

        // IIO timestamps default to CLOCK_REALTIME, which jumps with clock
        // changes and suspend; monotonic is what the rest of tiltd uses.
        var clock = timestampElement == nil ? nil : (info.timestampClock ?? "realtime")
        if timestampElement != nil, let current = info.timestampClock, current != "monotonic" {
            if iio.writeDeviceAttribute(device, "current_timestamp_clock", "monotonic") == nil {
                clock = "monotonic"
            } else {
                notice(.notice("\(shownName): cannot set current_timestamp_clock to monotonic; "
                    + "timestamps stay on the \(current) clock (install udev/70-tiltd.rules to allow it)"))
            }
        }
        self.clock = clock

        // The trigger must be set before the buffer is enabled (IIO ABI).
        if info.currentTrigger == nil, let name = info.triggerCandidate {
            let trigger = iio.devices(context.handle).first {
                iio.isTrigger($0) && iio.deviceName($0) == name
            }
            if let error = iio.setTrigger(device, trigger) {
                throw IIOError("setting trigger \(name) (trigger/current_trigger)", on: shownName, errno: error)
            }
        }

        if capacity != nil && cancelPipe.reader < 0 {
            throw IIOError("making the buffer's wake-up pipe", on: shownName, errno: Errno(errno))
        }
        try create(watermark: watermark)
    }

    deinit {
        close()
        if cancelPipe.reader >= 0 {
            Glibc.close(cancelPipe.reader)
            Glibc.close(cancelPipe.writer)
        }
    }

    /// Creates (and so enables) the buffer, first setting the kernel's
    /// watermark where the driver has one and a batch is asked for.
    private func create(watermark wanted: Int?) throws {
        watermark = nil
        if let capacity, let wanted, wanted > 1, iio.hasBufferAttribute(device, "watermark") {
            // The watermark may not exceed the length; libiio sets the
            // length again (to capacity × 4) when it creates the buffer.
            _ = iio.writeBufferAttribute(device, "length", String(capacity * 4))
            if iio.writeBufferAttribute(device, "watermark", String(min(wanted, capacity))) == nil {
                watermark = min(wanted, capacity)
            }
        } else if capacity != nil, iio.hasBufferAttribute(device, "watermark") {
            if iio.writeBufferAttribute(device, "watermark", "1") == nil { watermark = 1 }
        }
        switch iio.createBuffer(device, samples: capacity ?? 1) {
        case .success(let buffer): lock.withLock { $0 = buffer }
        case .failure(let errno) where errno.code == ENOENT:
            // libiio opens /dev/<id> when the buffer is created.
            throw IIOError("enabling the buffer", on: shownName, errno: errno,
                           fix: "/dev/\(deviceID) is missing: check that udev created it "
                               + "(ls -l /dev/iio:*), or use \(Setting.mode) poll")
        case .failure(let errno): throw IIOError("enabling the buffer", on: shownName, errno: errno)
        }
        if capacity != nil, let buffer = lock.withLock({ $0 }), let errno = iio.setNonBlocking(buffer) {
            close()
            throw IIOError("making the buffer non-blocking", on: shownName, errno: errno)
        }
    }

    /// The buffer's poll descriptor, nil when the backend has none (a
    /// paced reader then cannot wait for data: `CaptureSession` uses the
    /// unpaced one).
    var pollDescriptor: Int32? {
        lock.withLock { $0 }.flatMap { iio.pollDescriptor($0) }
    }

    /// Sets the kernel's watermark to `scans` by creating the buffer again,
    /// after handing `body` every scan the old one still holds. Scans that
    /// arrive while the buffer is disabled (the sysfs writes between the
    /// two) are lost; nothing is done where the watermark was not set.
    func changeWatermark(to scans: Int, _ body: (SIMD3<Int64>, Int64?, SIMD3<Int64>?) throws -> Void) throws {
        guard capacity != nil, let current = watermark, current != scans else { return }
        try drain(body)
        close()
        carried = []
        try create(watermark: scans)
    }

    /// Paced: waits until `due` (or at once when it has passed), then hands
    /// `body` every scan the kernel holds, in order; when it holds none yet,
    /// waits for the first for at most `timeoutNanoseconds`.
    ///
    /// - Throws: `IIOError` with ETIMEDOUT when nothing came in time,
    ///   ENODEV when the device vanished, ECANCELED after `cancel()`.
    func read(due: Int64, waiting: any CaptureWaiting,
              _ body: (SIMD3<Int64>, Int64?, SIMD3<Int64>?) throws -> Void) throws {
        if waiting.nanoseconds() < due,
           waiting.wait(untilNanoseconds: due, readable: nil, cancel: cancelPipe.reader) == .cancelled || isCancelled {
            throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED))
        }
        var deadline: Int64?
        while try drain(body) == 0 {
            let timeout = deadline ?? waiting.nanoseconds() + timeoutNanoseconds
            deadline = timeout
            guard let descriptor = pollDescriptor else {
                throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED))
            }
            switch waiting.wait(untilNanoseconds: timeout, readable: descriptor, cancel: cancelPipe.reader) {
            case .cancelled: throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED))
            case .deadline: throw IIOError("waiting for buffered data", on: shownName, errno: Errno(ETIMEDOUT))
            case .readable: if isCancelled { throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED)) }
            }
        }
    }

    private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Paced: hands `body` the scans the kernel holds now, without waiting.
    ///
    /// - Returns: how many scans were handed.
    @discardableResult
    private func drain(_ body: (SIMD3<Int64>, Int64?, SIMD3<Int64>?) throws -> Void) throws -> Int {
        guard let buffer = lock.withLock({ $0 }) else {
            throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED))
        }
        var handed = 0
        while true {
            switch iio.refill(buffer) {
            case .failure(let errno) where errno.code == EAGAIN:
                return handed
            case .failure(let errno):
                throw IIOError("waiting for buffered data", on: shownName, errno: errno)
            case .success:
                let bytes = iio.bufferBytes(buffer)
                handed += try decode(bytes, body)
                // A full buffer may have left scans behind in the kernel.
                if bytes.count < (capacity ?? 1) * layout.scanBytes { return handed }
            }
        }
    }

    /// Hands `body` the whole scans of `bytes` after any carried from the
    /// last read, and carries a split scan's first bytes to the next.
    private func decode(_ bytes: UnsafeRawBufferPointer,
                        _ body: (SIMD3<Int64>, Int64?, SIMD3<Int64>?) throws -> Void) throws -> Int {
        let size = layout.scanBytes
        var handed = 0
        func scans(in bytes: UnsafeRawBufferPointer) throws -> Int {
            var offset = 0
            while offset + size <= bytes.count {
                let scan = layout.decode(bytes, at: offset)
                try body(scan.raw, scan.timestamp, layout.decodeGyro(bytes, at: offset))
                handed += 1
                offset += size
            }
            return offset
        }
        if carried.isEmpty {
            let used = try scans(in: bytes)
            carried = Array(bytes[used...])
        } else {
            let joined = carried + Array(bytes)
            let used = try joined.withUnsafeBytes { try scans(in: $0) }
            carried = Array(joined[used...])
        }
        return handed
    }

    /// Waits for the next refill and calls `body` for each scan in it.
    ///
    /// - Throws: `IIOError` with ETIMEDOUT when nothing came within the
    ///   context's timeout, ENODEV when the device vanished, or ECANCELED
    ///   after `cancel()`.
    func refill(_ body: (SIMD3<Int64>, Int64?, SIMD3<Int64>?) throws -> Void) throws {
        guard let buffer = lock.withLock({ $0 }) else {
            throw IIOError("reading the buffer", on: shownName, errno: Errno(ECANCELED))
        }
        switch iio.refill(buffer) {
        case .failure(let errno):
            throw IIOError("waiting for buffered data", on: shownName, errno: errno)
        case .success:
            let bytes = iio.bufferBytes(buffer)
            let size = layout.scanBytes
            var offset = 0
            while offset + size <= bytes.count {
                let scan = layout.decode(bytes, at: offset)
                try body(scan.raw, scan.timestamp, layout.decodeGyro(bytes, at: offset))
                offset += size
            }
        }
    }

    /// Wakes a refill or a paced wait blocked on the capture thread;
    /// callable from any thread.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        if cancelPipe.writer >= 0 {
            var one: UInt8 = 1
            _ = write(cancelPipe.writer, &one, 1)
        }
        lock.withLock { buffer in if let buffer { iio.cancel(buffer) } }
    }

    /// Disables and frees the buffer; idempotent.
    func close() {
        lock.withLock { buffer in
            if let current = buffer { iio.destroyBuffer(current) }
            buffer = nil
        }
    }
}
