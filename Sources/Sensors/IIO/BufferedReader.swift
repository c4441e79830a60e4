import Motion
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Buffered capture: accel x/y/z and timestamp scan elements read through a
/// one-scan libiio buffer, so each sample is delivered as soon as it exists.
///
/// `iio_buffer_refill` blocks until the whole buffer is full (libiio 0.24),
/// so the latency is length / rate: one scan keeps it at one sample.
final class BufferedReader: @unchecked Sendable {
    // Safe to share: `cancel()` is the only method called from another
    // thread, and it touches the buffer handle only under `lock`, which
    // `close()` also holds while destroying it.
    private let lock = Mutex<IIOBufferHandle?>(nil)
    private let iio: any IIOBackend
    private let device: IIODeviceHandle
    private let shownName: String
    let layout: ScanLayout
    /// The clock of the device's timestamps, nil when there is no timestamp element.
    let clock: String?

    /// Enables the channels, sets the trigger and clock, and creates the buffer.
    ///
    /// - Throws: `IIOError`: EACCES without the udev rule, EBUSY when another
    ///   process owns the buffer, EINVAL when the device refuses.
    /// - Parameter gyroAxes: the gyro's x, y, z channels when they are on
    ///   the same device (one scan carries both), else empty.
    init(found: AccelerometerDiscovery.Found, context: IIOContext, gyroAxes: [IIOChannelHandle] = [],
         notice: (Diagnostic) -> Void) throws {
        let iio = context.iio
        self.iio = iio
        device = found.device
        shownName = found.info.displayName
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

        switch iio.createBuffer(device, samples: 1) {
        case .success(let buffer): lock.withLock { $0 = buffer }
        case .failure(let errno) where errno.code == ENOENT:
            // libiio opens /dev/<id> when the buffer is created.
            throw IIOError("enabling the buffer", on: shownName, errno: errno,
                           fix: "/dev/\(info.id) is missing: check that udev created it "
                               + "(ls -l /dev/iio:*), or use \(Setting.mode) poll")
        case .failure(let errno): throw IIOError("enabling the buffer", on: shownName, errno: errno)
        }
    }

    deinit { close() }

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

    /// Wakes a refill blocked on the capture thread; callable from any thread.
    func cancel() {
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
