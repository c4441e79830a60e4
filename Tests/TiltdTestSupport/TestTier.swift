import Foundation

/// The tier of a test run (scripts/test.sh). `scripts/test.sh unit`
/// (TILTD_TEST_TIER=unit) runs the suites of every test target except the
/// system-tier ones it names: tests that spawn nothing (no tiltd binary,
/// umockdev, Chromium, PulseAudio or dbus). Each helper here that starts a
/// process asks `requireSystem` first, so a unit-tier suite that spawns one
/// stops the run at once instead of slowing the tier.
public enum TestTier {
    /// True in `scripts/test.sh unit`.
    public static let isUnit = ProcessInfo.processInfo.environment["TILTD_TEST_TIER"] == "unit"

    /// Stops a unit-tier run that is about to start `program`.
    public static func requireSystem(starting program: String) {
        guard isUnit else { return }
        preconditionFailure("a unit-tier test starts \(program): `git mv` its file into a system-tier test target "
                            + "(system_targets in scripts/test.sh)")
    }
}
