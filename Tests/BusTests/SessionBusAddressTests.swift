import Foundation
import Testing
import TiltdTestSupport

/// `--session` without DBUS_SESSION_BUS_ADDRESS: sd-bus said only "No medium
/// found". The message names the unset variable, where it looked instead
/// and what to do.
@Suite(.timeLimit(.minutes(15))) struct SessionBusAddressTests {
    static func monitor(unsetting variables: [String], environment: [String: String] = [:]) throws -> TiltdProcess.Result {
        try TiltdProcess.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                 variables.flatMap { ["-u", $0] } + [TiltdProcess.binary.path, "monitor", "--session"],
                                 environment: environment, timeout: 60)
    }

    @Test func withoutEitherVariableBothAreNamed() throws {
        let r = try Self.monitor(unsetting: ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"])
        #expect(r.status == 1)
        #expect(r.stderr == "tiltd: error: cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not set, and "
            + "neither is XDG_RUNTIME_DIR (No medium found); run tiltd inside your desktop session, export "
            + "DBUS_SESSION_BUS_ADDRESS (e.g. unix:path=/run/user/$(id -u)/bus), or give it a bus of its own with "
            + "dbus-run-session -- tiltd …\n")
    }

    @Test func withARuntimeDirectoryWithoutABusItIsNamed() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Self.monitor(unsetting: ["DBUS_SESSION_BUS_ADDRESS"], environment: ["XDG_RUNTIME_DIR": dir])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("tiltd: error: cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not "
            + "set, and there is no bus at \(dir)/bus ("), "\(r.stderr)")
        #expect(r.stderr.contains("export DBUS_SESSION_BUS_ADDRESS"), "\(r.stderr)")
    }
}
