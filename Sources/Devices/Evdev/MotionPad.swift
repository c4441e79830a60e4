import Motion
import Wording
#if canImport(Glibc)
import Glibc
#endif

/// One open evdev motion sensor: its node's file descriptor and libevdev
/// handle, freed in `deinit` only.
///
/// Lives on one thread (the capture thread, or the caller of `describe`).
final class MotionPad {
    let info: MotionPadInfo
    private let descriptor: Int32
    private let device: OpaquePointer
    private var assembler: PadReportAssembler
    /// The bytes read from the node, whole events handed out in order.
    private var events = PadEventBuffer(eventSize: LibEvdev.eventSize)
    /// True from SYN_DROPPED to the next SYN_REPORT: those events are
    /// incomplete and dropped, as the kernel's evdev documentation asks.
    private var discardingUntilReport = false
    /// True when the kernel stamps events on CLOCK_MONOTONIC (EVIOCSCLOCKID
    /// accepted); otherwise arrival times are taken from the clock here.
    let monotonicEventTimes: Bool
    /// `/sys/class/input/eventN`: checked now and then, because a device
    /// removed under umockdev leaves its open node silent instead of
    /// failing with ENODEV as the kernel's does.
    private let sysfsPath: String
    private var lastPresenceCheckNanoseconds: Int64 = 0
    private static let presenceCheckNanoseconds: Int64 = 500_000_000

    /// Opens `node` and reads its description.
    ///
    /// - Parameters:
    ///   - node: "/dev/input/eventN".
    ///   - matrix: replaces the family's matrix (`Setting.mountMatrix`), with where it came from.
    /// - Throws: `EvdevError` (EACCES explains the udev rule), or
    ///   `MotionPadSelectionError.notMotionSensor` when the node lacks
    ///   INPUT_PROP_ACCELEROMETER or ABS_X/Y/Z.
    init(node: String, matrix: (MountMatrix, MountMatrixSource)? = nil) throws {
        sysfsPath = "/sys/class/input/" + (node.split(separator: "/").last.map(String.init) ?? node)
        descriptor = try LibEvdev.openNode(node).mapError { EvdevError("opening", on: node, errno: $0) }.get()
        switch LibEvdev.newDevice(descriptor: descriptor) {
        case .success(let device): self.device = device
        case .failure(let errno):
            LibEvdev.closeNode(descriptor)
            throw EvdevError("reading the description of", on: node, errno: errno)
        }
        let device = self.device
        let accel = [LibEvdev.absX, LibEvdev.absY, LibEvdev.absZ].compactMap {
            LibEvdev.hasCode(device, type: LibEvdev.eventAbs, code: $0) ? LibEvdev.axis(device, code: $0) : nil
        }
        let gyro = [LibEvdev.absRX, LibEvdev.absRY, LibEvdev.absRZ].compactMap {
            LibEvdev.hasCode(device, type: LibEvdev.eventAbs, code: $0) ? LibEvdev.axis(device, code: $0) : nil
        }
        let name = LibEvdev.name(device)
        guard LibEvdev.isAccelerometer(device), accel.count == 3 else {
            LibEvdev.freeDevice(device)
            LibEvdev.closeNode(descriptor)
            throw MotionPadSelectionError.notMotionSensor(node: node, name: name)
        }
        info = MotionPadInfo(node: node, name: name, vendor: LibEvdev.vendor(device),
                             product: LibEvdev.product(device), bus: LibEvdev.bus(device),
                             accelerometerAxes: accel, gyroscopeAxes: gyro.count == 3 ? gyro : [],
                             hasTimestamp: LibEvdev.hasCode(device, type: LibEvdev.eventMsc,
                                                            code: LibEvdev.mscTimestamp),
                             mountMatrix: matrix?.0, mountMatrixSource: matrix?.1 ?? .padFamily)
        monotonicEventTimes = LibEvdev.useMonotonicClock(device) == nil
        assembler = PadReportAssembler(info: info)
        for code in [LibEvdev.absX, LibEvdev.absY, LibEvdev.absZ, LibEvdev.absRX, LibEvdev.absRY, LibEvdev.absRZ] {
            assembler.set(code: code, value: LibEvdev.value(device, code: code))
        }
    }

    deinit {
        LibEvdev.freeDevice(device)
        LibEvdev.closeNode(descriptor)
    }

    /// Reads what arrives within `timeoutMilliseconds`, one sample per report.
    ///
    /// - Parameters:
    ///   - notice: one-line messages (events dropped by the kernel).
    ///   - emit: receives each sample; return false to stop.
    /// - Returns: false when `emit` asked to stop.
    /// - Throws: `EvdevError` when the node fails (ENODEV: the pad is gone).
    func read(timeoutMilliseconds: Int32, notice: (Diagnostic) -> Void,
              emit: (MotionSample) -> Bool) throws -> Bool {
        let now = MonotonicClock.nanoseconds()
        if now - lastPresenceCheckNanoseconds >= Self.presenceCheckNanoseconds {
            lastPresenceCheckNanoseconds = now
            if !LibEvdev.exists(sysfsPath) {
                throw EvdevError("reading", on: info.displayName, errno: Errno(ENODEV))
            }
        }
        let readable = try LibEvdev.waitReadable(descriptor, milliseconds: timeoutMilliseconds)
            .mapError { EvdevError("waiting for events from", on: info.displayName, errno: $0) }.get()
        guard readable else { return true }
        var gotAny = false
        while true {
            let fill = try events.fill { bytes in
                try LibEvdev.readNode(descriptor, into: bytes)
                    .mapError { EvdevError("reading", on: info.displayName, errno: $0) }.get()
            }
            switch fill {
            case .nothing:
                // Nothing (more) now, or only part of an event: its rest
                // comes with the next read, when the node is readable again.
                return true
            case .endOfFile:
                // Readable yet at end of file: the node's other side closed
                // (a removed device under umockdev; the kernel says ENODEV).
                if gotAny { return true }
                throw EvdevError("reading", on: info.displayName, errno: Errno(ENODEV))
            case .bytes:
                gotAny = true
            }
            while let event = events.next(LibEvdev.decode) {
                if try !handle(event, notice: notice, emit: emit) { return false }
            }
        }
    }

    /// One event: axes and timestamp into the report, a sample at
    /// SYN_REPORT; SYN_DROPPED starts a resynchronisation.
    ///
    /// - Returns: false when `emit` asked to stop.
    private func handle(_ event: LibEvdev.Event, notice: (Diagnostic) -> Void,
                        emit: (MotionSample) -> Bool) throws -> Bool {
        let isReport = event.type == LibEvdev.eventSyn && event.code == LibEvdev.synReport
        if discardingUntilReport {
            guard isReport else { return true }
            // The events since SYN_DROPPED are dropped; the device's state is
            // read back instead, and no sample is made from this report.
            discardingUntilReport = false
            for code in [LibEvdev.absX, LibEvdev.absY, LibEvdev.absZ, LibEvdev.absRX, LibEvdev.absRY, LibEvdev.absRZ]
            where LibEvdev.hasCode(device, type: LibEvdev.eventAbs, code: code) {
                let value = try LibEvdev.currentValue(descriptor, code: code)
                    .mapError { EvdevError("resynchronising", on: info.displayName, errno: $0) }.get()
                assembler.set(code: code, value: value)
            }
            return true
        }
        if event.type == LibEvdev.eventSyn && event.code == LibEvdev.synDropped {
            // The kernel's queue overflowed.
            notice(.notice("\(info.displayName) dropped events (SYN_DROPPED): resynchronising"))
            assembler.dropped()
            discardingUntilReport = true
        } else if event.type == LibEvdev.eventAbs {
            assembler.set(code: event.code, value: event.value)
        } else if event.type == LibEvdev.eventMsc && event.code == LibEvdev.mscTimestamp {
            assembler.timestamp(event.value)
        } else if isReport {
            let arrival = monotonicEventTimes ? event.timeMicroseconds * 1000 : MonotonicClock.nanoseconds()
            return emit(assembler.report(arrivalNanoseconds: arrival))
        }
        return true
    }
}
