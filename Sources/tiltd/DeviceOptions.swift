import ArgumentParser
import Motion
import Sensors

/// Which accelerometer to read and how: shared by `run` and `record`.
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("libiio context: local:, ip:HOST[:PORT] (iiod), usb:BUS.DEV.INTF.",
                               valueName: "uri"))
    var uri: String = "local:"

    @Option(help: ArgumentHelp("Accelerometer by id (iio:device0), name, label or location "
                               + "(display, base); a game pad's motion sensor by node (/dev/input/event5) "
                               + "or name. Default: the display one, never a base one.",
                               valueName: "device"))
    var device: String?

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

    @Option(name: .customLong("mount-matrix"),
            help: ArgumentHelp("Override the mount matrix: \"x1, y1, z1; x2, y2, z2; x3, y3, z3\".",
                               valueName: "matrix"))
    var mountMatrix: String?


    func validate() throws {
        try DeviceOptions.validate(uri: uri)
        if let rate, !(rate.isFinite && rate > 0 && rate <= 100_000) {
            throw ValidationError("--rate \(rate) is not a rate in Hz: give a number above 0 and at most 100000")
        }
        if let mountMatrix {
            do { _ = try MountMatrix(parsing: mountMatrix) } catch {
                throw ValidationError("--mount-matrix: \(error)")
            }
        }
        if source == .iio || source == .rotation, let device, MotionPadSelector.isNode(device) {
            throw ValidationError("--device \(device) is an input node: use --source evdev or auto")
        }
        if let device, device.isEmpty {
            throw ValidationError("--device is empty: give an id (iio:device0), a name, a label or display/base")
        }
    }

    /// Checks a libiio URI's scheme, so a typo fails before anything is opened.
    static func validate(uri: String) throws {
        let schemes = ["local:", "ip:", "usb:", "serial:"]
        guard schemes.contains(where: { uri.hasPrefix($0) }) else {
            throw ValidationError("--uri \(uri) is not a libiio context URI: use local:, ip:HOST[:PORT], "
                                  + "usb:BUS.DEV.INTF or serial:PORT")
        }
        if uri.hasPrefix("ip:") && uri.count == 3 {
            throw ValidationError("--uri ip: needs a host: ip:HOST[:PORT], e.g. ip:192.168.2.1")
        }
    }

    /// The device options given (defaults left out), for a command that
    /// must refuse them (`serve --replay`).
    var givenOptions: [String] {
        var given: [String] = []
        if uri != "local:" { given.append("--uri") }
        if device != nil { given.append("--device") }
        if mode != .auto { given.append("--mode") }
        if rate != nil { given.append("--rate") }
        if mountMatrix != nil { given.append("--mount-matrix") }
        return given
    }

    /// The capture configuration these options describe.
    ///
    /// - Parameter gyro: read the paired gyroscope too (false: `--no-gyro`).
    func makeCaptureConfiguration(gyro: Bool = true) -> CaptureConfiguration {
        CaptureConfiguration(uri: uri, device: device, mode: mode, rateHertz: rate,
                             mountMatrix: mountMatrix.flatMap { try? MountMatrix(parsing: $0) },
                             gyroEnabled: gyro, source: source.resolve(device: device, uri: uri),
                             attitude: source == .rotation ? .rotation : .accelerometer)
    }
}

extension CaptureMode: ExpressibleByArgument {}
