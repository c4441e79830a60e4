import ArgumentParser
import Sensors

/// `--source`: which kind of motion sensor `run`, `record` and `serve` read.
enum CaptureSourceSetting: String, ExpressibleByArgument, CaseIterable {
    /// evdev when `--device` names /dev/input/…; otherwise the IIO
    /// accelerometer, or an evdev motion sensor (game pad) when the local
    /// IIO context has no accelerometer that fits `--device`.
    case auto
    case iio
    case evdev
    /// IIO, with the angles from an HID sensor hub's fused quaternion.
    case rotation

    /// The source a capture will use, deciding `auto` by looking at what exists now.
    func resolve(device: String?, uri: String) -> CaptureSource {
        switch self {
        case .iio, .rotation: return .iio
        case .evdev: return .evdev
        case .auto:
            if let device, MotionPadSelector.isNode(device) { return .evdev }
            guard uri == "local:", !Self.iioHasAccelerometer(matching: device) else { return .iio }
            // A pad that fits (chosen from udev's list: nothing is opened here).
            let fits = (try? MotionPadSelector(query: device).choose(from: MotionPadDiscovery.candidates())) != nil
            return fits ? .evdev : .iio
        }
    }

    private static func iioHasAccelerometer(matching device: String?) -> Bool {
        guard let context = try? IIOContext(uri: "local:") else { return false }
        var skipped: [any Error] = []
        guard let found = try? context.accelerometers(skipped: &skipped) else { return false }
        return (try? AccelerometerSelector(query: device)
            .choose(from: found, uri: "local:", deviceCount: context.deviceCount)) != nil
    }
}
