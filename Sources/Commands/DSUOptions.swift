import ArgumentParser
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
}
