import Motion
import Wording
/// The evdev motion sensor a `CaptureLoop` captures. A pad that vanishes
/// (unplugged, Bluetooth sleep) is waited for and picked up again, found by
/// the name it had when it comes back on a new /dev/input/eventN.
struct PadCaptureDevice: CaptureDevice {
    /// `device` (node or name) and `mountMatrix` select and orient the pad.
    let configuration: CaptureConfiguration
    /// The name of the pad first opened.
    var padName: String? = nil
    var threadName: String { "tiltd pad" }
    var noun: String { "the motion sensor" }
    var faultRemedy: String { "waiting for it to return" }

    mutating func open(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession {
        let pad = try openPad()
        padName = pad.info.name
        return PadSession(pad)
    }

    /// By `Setting.device` first, else by the name the pad had.
    func reopen(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession {
        do {
            return PadSession(try openPad())
        } catch let error as MotionPadSelectionError {
            guard let padName, padName != configuration.device else { throw error }
            return PadSession(try openPad(query: padName))
        }
    }

    /// Chooses the configured pad among those udev lists and opens it
    /// (only it: the others are never opened).
    private func openPad(query: String? = nil) throws -> MotionPad {
        let candidates = MotionPadDiscovery.candidates()
        let index = try MotionPadSelector(query: query ?? configuration.device).choose(from: candidates)
        return try MotionPadDiscovery(matrixOverride: configuration.mountMatrix).open(candidates[index])
    }

    func resumedNotice(_ status: CaptureStatus) -> Diagnostic { .notice("\(status.info.displayName) is back: resuming") }

    /// Samples are on CLOCK_MONOTONIC: "now" places the gap, after the last sample.
    func faultTime(clock: String, lastSampleNanoseconds: Int64?) -> Int64 {
        max(MonotonicClock.nanoseconds(), (lastSampleNanoseconds ?? 0) + 1)
    }
}

/// An open pad, read in polls short enough for a stop to be seen promptly.
final class PadSession: CaptureDeviceSession {
    let pad: MotionPad
    let status: CaptureStatus
    var cancel: (@Sendable () -> Void)? { nil }
    private static let pollMilliseconds: Int32 = 100

    init(_ pad: MotionPad) {
        self.pad = pad
        status = CaptureStatus(info: pad.info.accelerometerInfo, mode: .buffer,
                               rateHertz: pad.info.family.nominalRateHertz, clock: "monotonic", pad: pad.info)
    }

    func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void, emit: (CapturedSample) -> Bool) throws -> Bool {
        while !shouldStop() {
            var notices: [Diagnostic] = []
            let keepGoing = try pad.read(timeoutMilliseconds: Self.pollMilliseconds, notice: { notices.append($0) }) {
                emit(CapturedSample(motion: $0))
            }
            for message in notices { notice(message) }
            if !keepGoing { return false }
        }
        return true
    }

    func close() {}
}
