import ArgumentParser
import Sensors
import Streaming
import Synchronization
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
    /// HasAccelerometer and Device from a look at the device `options` name.
    ///
    /// - Parameter onClaimCountChanged: see `TiltService`.
    /// - Throws: `ExitCode.failure` after printing why the bus or the name
    ///   cannot be had.
    func startService(device options: DeviceOptions,
                      onClaimCountChanged: @escaping @Sendable (Int) -> Void) throws -> TiltService? {
        guard let dbus else { return nil }
        var properties = TiltProperties()
        do {
            let context = try IIOContext(uri: options.uri)
            var skipped: [any Error] = []
            let found = try context.accelerometers(skipped: &skipped)
            let chosen = try AccelerometerSelector(query: options.device)
                .choose(from: found, uri: options.uri, deviceCount: context.deviceCount)
            properties.hasAccelerometer = true
            properties.device = found[chosen].displayName
        } catch {
            TiltdLog.logger.notice("D-Bus: HasAccelerometer is false for now: \(error)")
        }
        do {
            return try TiltService(bus: dbus, properties: properties, onClaimCountChanged: onClaimCountChanged,
                                   report: TiltdLog.relay)
        } catch {
            TiltdLog.logger.error("--dbus: \(error)")
            throw ExitCode.failure
        }
    }
}

/// The number of consumers that want the device open: D-Bus claims plus,
/// with `--on-demand`, socket clients; reported to `ListenOnDemand` as one count.
final class DemandCount: Sendable {
    private let counts = Mutex((socket: 0, bus: 0))
    private let changed: @Sendable (Int) -> Void

    init(changed: @escaping @Sendable (Int) -> Void) { self.changed = changed }

    func socketClients(_ count: Int) { report { $0.socket = count } }
    func busClaims(_ count: Int) { report { $0.bus = count } }

    private func report(_ update: (inout (socket: Int, bus: Int)) -> Void) {
        let total = counts.withLock { counts -> Int in
            update(&counts)
            return counts.socket + counts.bus
        }
        changed(total)
    }
}

extension TiltService: StateSink {}
