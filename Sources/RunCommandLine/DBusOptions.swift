import ArgumentParser
import Streaming
import TiltBus

/// `--dbus system|session`: also serve the states as the D-Bus service
/// net.tiltd.Tilt (docs/dbus.md). The device then opens only while a D-Bus
/// client holds a claim (or, with `--on-demand`, a socket client is connected).
struct DBusOptions: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("Own net.tiltd.Tilt on the system or session bus and send states to the "
                               + "clients that Claim() it; the device opens only while one does.",
                               valueName: "system|session"),
            transform: { text in
                guard let bus = BusAddress(argument: text) else {
                    throw ValidationError("--dbus \(text): expected system or session")
                }
                return bus
            })
    var dbus: BusAddress?
}

extension DBusOptions {
    /// Starts the service `--dbus` asks for (nil without `--dbus`), with
    /// HasAccelerometer, HasGyroscope and Device from a look at the device
    /// `options` name.
    ///
    /// - Parameters:
    ///   - gyro: the gyroscope is fused when present (false: `--no-gyro`).
    ///   - onClaimCountChanged: see `TiltService`.
    /// - Throws: `ExitCode.failure` after printing why the bus or the name
    ///   cannot be had.
    func startService(device options: DeviceOptions, gyro: Bool,
                      onClaimCountChanged: @escaping @Sendable (Int) -> Void) throws -> TiltService? {
        guard let dbus else { return nil }
        let properties = TiltProperties.lookingAt(uri: options.uri, device: options.device, gyro: gyro, report: { TiltdLog.log($0) })
        do {
            return try TiltService(bus: dbus, properties: properties, onClaimCountChanged: onClaimCountChanged,
                                   report: { TiltdLog.log($0) })
        } catch {
            TiltdLog.logger.error("--dbus: \(error)")
            throw ExitCode.failure
        }
    }
}
