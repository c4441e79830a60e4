@testable import Bus
import Foundation
import TiltdTestSupport

/// A private bus with a fake UPower on it (Fixtures/fake-upower.py), whose
/// DisplayDevice shows the battery the test last set.
final class FakeUPower {
    let bus: PrivateBus
    private let values = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-upower-\(UUID().uuidString)").path
    private var service: ChildProcess?

    /// Why the tests that need one cannot run here, or nil when they can.
    static let missing: String? = !PrivateBus.available ? "no /usr/bin/dbus-daemon (scripts/setup.sh test installs dbus)"
        : !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py")
        ? "no python3-gi for /usr/bin/python3 (scripts/setup.sh test installs it)" : nil

    /// Starts UPower showing a battery and waits until its name is owned.
    init(isPresent: Bool = true, percentage: Double, state: UInt32) throws {
        bus = try PrivateBus()
        try set(isPresent: isPresent, percentage: percentage, state: state)
        let service = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("fake-upower.py"), bus.address, values])
        self.service = service
        let client = try SDBus(.address(bus.address))
        let owned = TestPaths.eventually { client.owner(of: UPowerBattery.busName) != nil }
        guard owned else {
            throw PrivateBus.Failure(text: "the fake UPower never owned its name: \(service.stderr)")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: values) }

    /// What every later read of the DisplayDevice sees (the file replaced whole).
    func set(isPresent: Bool = true, percentage: Double, state: UInt32) throws {
        try "\(isPresent) \(percentage) \(state)\n".write(toFile: values, atomically: true, encoding: .utf8)
    }
}
