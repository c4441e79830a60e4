import ArgumentParser
import Devices

/// Which accelerometer to read and how: shared by `run` and `record`.
public struct DeviceOptions: ParsableArguments {
    /// `--uri`'s help, shared with `list`.
    public static let uriHelp = ArgumentHelp("libiio context: local:, ip:HOST[:PORT] (iiod), usb:BUS.DEV.INTF.", valueName: "uri")

    @Option(help: uriHelp) public var uri: String = "local:"

    @Option(help: ArgumentHelp("Accelerometer by id (iio:device0), name, label or location "
                               + "(display, base); a game pad's motion sensor by node (/dev/input/event5) "
                               + "or name. Default: the display one, never a base one.",
                               valueName: "device"))
    public var device: String?

    @Option(help: ArgumentHelp("auto (IIO, else a game pad's motion sensor through evdev), iio, evdev, or "
                               + "rotation: an HID sensor hub's own fused quaternion (dev_rotation), checked "
                               + "against its accelerometer at start (without one that agrees, tiltd says so "
                               + "and uses the accelerometer).",
                               valueName: "source"))
    var source: CaptureSourceSetting = .auto

    @Option(help: ArgumentHelp("auto (buffer, else poll, saying why), buffer, or poll.", valueName: "mode"))
    var mode: CaptureMode = .auto

    @Option(parsing: .unconditional, help: ArgumentHelp("Sampling rate in Hz, clamped to the rates the device offers. "
                               + "Default: the device's (raised to ≥ 10 Hz), or 50 Hz.", valueName: "hz"))
    var rate: Double?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How late a buffered sample may reach a consumer, in ms: tiltd reads the scans "
                               + "that arrive within it in one wake-up (every scan still read, with its own "
                               + "timestamp); at rest it wakes 4 times a second, twice after 10 s still. 0 "
                               + "wakes once per sample; while a --dsu client is subscribed it is one sample. "
                               + "Default: \(CaptureConfiguration.defaultLatencyText) ms.",
                               valueName: "ms"))
    var latency: Double?

    @Option(name: .customLong("mount-matrix"),
            help: ArgumentHelp("Override the mount matrix: \"x1, y1, z1; x2, y2, z2; x3, y3, z3\".",
                               valueName: "matrix"))
    var mountMatrix: String?


    public init() {}

    public func validate() throws {
        try validating {
            try CaptureConfiguration.check(uri: uri, device: device, source: source, rateHertz: rate,
                                           mountMatrix: mountMatrix)
            try CaptureConfiguration.checkLatency(milliseconds: latency)
        }
    }

    /// The device options given (defaults left out), for a command that
    /// must refuse them (`serve --replay`).
    public var givenOptions: [String] {
        var given: [String] = []
        if uri != "local:" { given.append("--uri") }
        if device != nil { given.append("--device") }
        if mode != .auto { given.append("--mode") }
        if rate != nil { given.append("--rate") }
        if mountMatrix != nil { given.append("--mount-matrix") }
        if latency != nil { given.append("--latency") }
        return given
    }

    /// The capture configuration these options describe (`--source auto` decided now).
    ///
    /// - Parameter gyro: read the paired gyroscope too (false: `--no-gyro`).
    public func makeCaptureConfiguration(gyro: Bool = true) throws -> CaptureConfiguration {
        try validating {
            try CaptureConfiguration(uri: uri, device: device, source: source, mode: mode, rateHertz: rate,
                                     mountMatrix: mountMatrix, gyroEnabled: gyro, latencyMilliseconds: latency)
        }
    }
}

extension CaptureMode: ExpressibleByArgument {}
extension CaptureSourceSetting: ExpressibleByArgument {}
