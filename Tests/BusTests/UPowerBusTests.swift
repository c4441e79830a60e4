@testable import Bus
import DSU
import Foundation
import Glibc
import Synchronization
import Testing
import TiltdTestSupport

/// `UPowerBattery` and the DSU server's slot 0 against a fake UPower on a
/// private bus (the battery from UPower when it has one, else n/a).
@Suite(.enabled(if: FakeUPower.missing == nil, Comment(rawValue: FakeUPower.missing ?? "")), .timeLimit(.minutes(15)))
struct UPowerBusTests {
    /// The readings a watch handed over, in order.
    final class Readings: Sendable {
        private let list = Mutex<[UPowerBattery?]>([])
        func append(_ battery: UPowerBattery?) { list.withLock { $0.append(battery) } }
        var values: [UPowerBattery?] { list.withLock { $0 } }
    }

    static func battery(_ percentage: Double, state: UInt64) -> UPowerBattery? {
        UPowerBattery(properties: ["IsPresent": .bool(true), "Percentage": .double(percentage), "State": .uint64(state)])
    }

    @Test func readGivesThePercentageAndStateAndALaterReadSeesAChange() throws {
        let upower = try FakeUPower(percentage: 55, state: 2)
        #expect(UPowerBattery.read(bus: .address(upower.bus.address)) == Self.battery(55, state: 2))
        try upower.set(percentage: 80.5, state: 1)
        #expect(UPowerBattery.read(bus: .address(upower.bus.address)) == Self.battery(80.5, state: 1))
    }

    @Test func noBatteryPresentReadsAsNone() throws {
        let upower = try FakeUPower(isPresent: false, percentage: 0, state: 0)
        #expect(UPowerBattery.read(bus: .address(upower.bus.address)) == nil)
    }

    /// Without UPower the bus answers at once that nobody owns the name
    /// (not sd-bus's call timeout), and the battery is none.
    @Test func noUPowerOnTheBusReadsAsNoneAtOnce() throws {
        let bus = try PrivateBus()
        #expect(UPowerBattery.read(bus: .address(bus.address)) == nil)
        #expect {
            try SDBus(.address(bus.address)).call(destination: UPowerBattery.busName, path: UPowerBattery.objectPath,
                                                  interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                                  argument: UPowerBattery.interface)
        } throws: { error in "\(error)".contains("org.freedesktop.UPower was not provided") }
    }

    @Test func watchDeliversAChangeOnALaterReadAndStopsWhenUpdateReturnsFalse() throws {
        let upower = try FakeUPower(percentage: 55, state: 2)
        let readings = Readings()
        let finished = UPowerBattery.watch(bus: .address(upower.bus.address), intervalSeconds: 1) { battery in
            readings.append(battery)
            return battery == Self.battery(55, state: 2)
        }
        #expect(TestPaths.eventually { !readings.values.isEmpty })
        try upower.set(percentage: 20, state: 4)
        // The change arrives, update returns false, the thread ends.
        #expect(TestPaths.eventually { finished.isOpen }, "\(readings.values)")
        let values = readings.values
        #expect(values.first == Self.battery(55, state: 2) && values.last == Self.battery(20, state: 4))
        #expect(values.dropLast().allSatisfy { $0 == Self.battery(55, state: 2) }, "\(values)")
    }

    /// `tiltd replay --realtime --dsu 0` with the fake as its system bus
    /// (sd-bus reads DBUS_SYSTEM_BUS_ADDRESS): slot 0's battery byte, in
    /// ports answers and data packets, is DSUController.Battery's grade.
    @Test(arguments: [(55.0, UInt32(2), DSUController.Battery(percentage: 55, charging: false, fullyCharged: false)),
                      (30.0, UInt32(1), DSUController.Battery(percentage: 30, charging: true, fullyCharged: false))])
    func dsuSlotZeroShowsUPowersBatteryGraded(percentage: Double, state: UInt32,
                                             expected: DSUController.Battery) async throws {
        let upower = try FakeUPower(percentage: percentage, state: state)
        let recording = try DSUTestClient.longRecording()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let tiltd = try SocketTiltdProcess(["replay", recording, "--realtime", "--dsu", "0"],
                                           environment: ["DBUS_SYSTEM_BUS_ADDRESS": upower.bus.address])
        let ready = try await TestThreadExecutor.offPool { tiltd.waitFor { DSUTestClient.port(in: tiltd.stderr) != nil } }
        #expect(ready, "\(tiltd.stderr)")
        let client = try await DSUTestClient(serverPort: try #require(DSUTestClient.port(in: tiltd.stderr)))
        client.keepSending([DSUTestClient.request(type: 0x100002, message: [0, 0, 0, 0, 0, 0, 0, 0], id: client.id),
                            DSUTestClient.request(type: 0x100001, message: DSUTestClient.le(Int32(1)) + [0], id: client.id)])
        // What came, and tiltd's log, in the failure when no packet comes.
        var received: [UInt32: Int] = [:]
        func next() async throws -> DSUTestClient.Answer {
            do {
                let answer = try await client.next()
                received[answer.type, default: 0] += 1
                return answer
            } catch {
                throw PrivateBus.Failure(text: "\(error) after \(received) (answers by type); tiltd's log: \(tiltd.stderr)")
            }
        }
        // n/a until the first reading, made on a thread of its own, arrives.
        let deadline = Date().addingTimeInterval(60)
        var packet = try await next()
        while packet.battery == DSUController.Battery.notApplicable.rawValue && Date() < deadline {
            packet = try await next()
        }
        try #require(packet.battery != DSUController.Battery.notApplicable.rawValue,
                     "slot 0's battery stayed n/a for 60 s: tiltd did not read the fake UPower. \(tiltd.stderr)")
        var seen: [UInt32: Int] = [:]
        while seen[0x100001, default: 0] < 2 || seen[0x100002, default: 0] < 10 {
            #expect(packet.slot == 0 && packet.battery == expected.rawValue, "type \(packet.type): \(packet.battery)")
            seen[packet.type, default: 0] += 1
            packet = try await next()
        }
        #expect(try await TestThreadExecutor.offPool { tiltd.stop(with: SIGTERM) }, "\(tiltd.stderr)")
    }
}
