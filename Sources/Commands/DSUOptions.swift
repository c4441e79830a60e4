import ArgumentParser
import Bus
import DSU

/// `--dsu PORT|HOST:PORT`: also serve the motion to emulators over UDP with
/// the cemuhook (DSU) protocol (docs/dsu.md).
public struct DSUOptions: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("Also serve the motion to emulators (Cemu, Dolphin, …) as a DSU (cemuhook) server "
                               + "on this UDP port, on 127.0.0.1 unless HOST is given; in the emulator add the "
                               + "server 127.0.0.1, port \(DSUProtocol.defaultPort) (docs/dsu.md).",
                               valueName: "PORT|HOST:PORT"),
            transform: { text in try validating { try DSUAddress(parsing: text) } })
    public var dsu: DSUAddress?

    public init() {}

    /// How to point an emulator at tiltd (`tiltd list`, after the devices).
    public static let emulatorHint = "emulators (Cemu, Dolphin, …) read this motion with `tiltd run --dsu "
        + "\(DSUProtocol.defaultPort)` and a DSU server 127.0.0.1:\(DSUProtocol.defaultPort) in their settings (docs/dsu.md)"

    /// Starts the server `--dsu` asks for (nil without `--dsu`).
    ///
    /// - Parameter onClientCountChange: the number of DSU clients whenever it changes.
    public func startServer(onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) async throws
        -> DSUServer? {
        guard let dsu else { return nil }
        let server = try await DSUServer(address: dsu, onClientCountChange: onClientCountChange)
        UPowerBattery.watch { [weak server] battery in
            server?.setBattery(battery.map(DSUController.Battery.init) ?? .notApplicable) ?? false
        }
        return server
    }
}

extension DSUController.Battery {
    /// Grades UPower's reading of the machine's battery.
    init(_ battery: UPowerBattery) {
        self.init(percentage: battery.percentage, charging: battery.isCharging,
                  fullyCharged: battery.isFullyCharged)
    }
}
