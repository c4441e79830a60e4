import Motion
import Wording
extension DeviceListing {
    /// Said after the reason when there is nothing to read at all (`list`,
    /// and `run` when no device opens): the game pads looked for too (on
    /// `local:` only), and how to try tiltd without hardware.
    ///
    /// - Parameter sweep: the bundled sweep to suggest replaying: the
    ///   installed copy when there is one (`BundledRecording`).
    public static func nothingToReadHint(uri: String,
                                         sweep: String = BundledRecording.path(of: BundledRecording.sweep)) -> String {
        (uri == "local:" ? "no game pad or handheld with a motion sensor either (DualShock 4, DualSense, "
            + "Switch Pro, Joy-Con, Steam Deck, read over evdev); " : "")
            + "to try tiltd without hardware, replay a recording (tiltd replay \(Setting.realtime) "
            + "\(sweep)) or fake a device with umockdev "
            + "(docs/devices.md, Testing without hardware)"
    }

    /// True when `error` says there is no device to read (no IIO subsystem,
    /// no accelerometer), rather than that one failed (permissions, busy).
    public static func meansNothingToRead(_ error: any Error) -> Bool {
        if let selection = error as? AccelerometerSelectionError, case .noAccelerometer = selection { return true }
        if let iio = error as? IIOError { return iio.errno.isGone }
        return false
    }
}
