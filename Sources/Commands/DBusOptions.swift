import ArgumentParser
import Bus

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
