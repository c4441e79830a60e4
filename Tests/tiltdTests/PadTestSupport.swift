import Foundation
import Testing
import TiltdTestSupport

/// Runs tiltd under umockdev with faked game-pad motion sensors (evdev): the
/// fixtures written by Tests/Fixtures/make-pads.py.
enum PadTestSupport {
    /// A faked evdev node: its udev description, ioctl answers and events.
    struct Pad {
        var node: String
        var stem: String
        /// The evemu file, when it is not `<stem>.events`.
        var events: String? = nil
        /// The ioctl answers, when they are not `<stem>.ioctl`.
        var ioctl: String? = nil

        static let ds4 = Pad(node: "/dev/input/event5", stem: "ds4-motion")
        static let deck = Pad(node: "/dev/input/event7", stem: "deck-motion")
        /// The DualShock 4 whose kernel queue overflows once (SYN_DROPPED) at
        /// 1.2 s, its axes as the kernel holds them then.
        static let ds4Dropping = Pad(node: "/dev/input/event5", stem: "ds4-motion", events: "ds4-dropped.events",
                                     ioctl: "ds4-dropped.ioctl")
    }

    /// Runs `tiltd arguments…` with the pads and the keyboard present.
    ///
    /// - Parameter playing: the pads whose scripted motion plays. umockdev
    ///   0.17 hangs on exit when an evemu node that was never opened outlives
    ///   its script (checked with `umockdev-run … -- sleep 4`), so a pad the
    ///   run will not read gets no events.
    static func tiltd(_ arguments: [String], pads: [Pad], playing: [Pad]? = nil, keyboard: Bool = true,
                      environment: [String: String] = [:], timeout: TimeInterval = 90) throws -> TiltdProcess.Result {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        var argv: [String] = []
        for pad in pads {
            argv += ["--device", DeviceTestSupport.fixture("\(pad.stem).umockdev").path,
                     "--ioctl", "\(pad.node)=\(DeviceTestSupport.fixture(pad.ioctl ?? "\(pad.stem).ioctl").path)"]
            if (playing ?? pads).contains(where: { $0.node == pad.node }) {
                let events = DeviceTestSupport.fixture(pad.events ?? "\(pad.stem).events").path
                argv += ["--evemu-events", "\(pad.node)=\(events)"]
            }
        }
        if keyboard { argv += ["--device", DeviceTestSupport.fixture("keyboard.umockdev").path] }
        argv += ["--", TiltdProcess.binary.path] + arguments
        return try TiltdProcess.execute(URL(fileURLWithPath: "/usr/bin/umockdev-run"), argv,
                                        environment: environment, timeout: timeout)
    }

    /// `(roll, pitch)` of each state, in order.
    static func angles(_ stdout: String) -> [(roll: Double, pitch: Double)] {
        DeviceTestSupport.states(stdout).compactMap { state in
            guard let roll = (state["roll"] as? NSNumber)?.doubleValue,
                  let pitch = (state["pitch"] as? NSNumber)?.doubleValue else { return nil }
            return (roll, pitch)
        }
    }
}
