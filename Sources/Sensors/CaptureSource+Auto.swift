extension CaptureSource {
    /// What `Setting.source` `auto` reads: evdev for an input node, IIO when the
    /// local context has an accelerometer matching `device` (or any remote
    /// context), else a game pad's motion sensor when one fits (chosen from
    /// udev's list: nothing is opened to decide), else IIO, whose capture
    /// then says what is missing.
    public static func automatic(device: String?, uri: String) -> CaptureSource {
        if let device, MotionPadSelector.isNode(device) { return .evdev }
        guard uri == "local:", !localAccelerometerExists(matching: device) else { return .iio }
        let fits = (try? MotionPadSelector(query: device).choose(from: MotionPadDiscovery.candidates())) != nil
        return fits ? .evdev : .iio
    }

    private static func localAccelerometerExists(matching device: String?) -> Bool {
        guard let context = try? IIOContext(uri: "local:") else { return false }
        var skipped: [any Error] = []
        guard let found = try? context.accelerometers(skipped: &skipped) else { return false }
        return (try? AccelerometerSelector(query: device)
            .choose(from: found, uri: "local:", deviceCount: context.deviceCount)) != nil
    }
}
