@testable import Bus
@testable import Devices
import Foundation
import Glibc
import Knob
import Motion
import SamplePath
import Synchronization
import Testing

/// TiltService on a private bus, with Python (Gio) clients in other processes.
@Suite(.enabled(if: PrivateBus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")), .timeLimit(.minutes(15)))
struct TiltServiceTests {
    /// The claim counts the service reported, in order.
    final class ClaimLog: Sendable {
        private let counts = Mutex<[Int]>([])
        func record(_ count: Int) { counts.withLock { $0.append(count) } }
        var values: [Int] { counts.withLock { $0 } }
    }

    static func client(_ bus: PrivateBus, _ mode: String, count: Int = 0) throws -> ChildProcess {
        try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address, mode, String(count)])
    }

    static func state(_ index: Int) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: 1_000_000_000 + Int64(index) * 5_000_000,
                                  roll: 0.001 * Double(index), pitch: 1.2 - 0.002 * Double(index),
                                  orientation: .normal))
    }

    @Test func onlyClaimantsReceiveTheStates() throws {
        let bus = try PrivateBus()
        let log = ClaimLog()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(hasAccelerometer: true),
                                      onClaimCountChanged: log.record, report: { _ in })
        defer { service.requestStop() }
        let watcher = try Self.client(bus, "watch")
        #expect(watcher.waitFor { watcher.stdout.contains("ready") }, "\(watcher.stderr)")
        let claimant = try Self.client(bus, "claim")
        #expect(claimant.waitFor { claimant.stdout.contains("ready") }, "\(claimant.stderr)")
        #expect(log.values == [1])
        var sent: [Int64: KnobState] = [:]
        var index = 0
        let enough = claimant.waitFor {
            let state = Self.state(index)
            sent[state.tilt.timestampNanoseconds] = state
            service.emit(state)
            index += 1
            return claimant.stdoutLines.count >= 21
        }
        #expect(enough, "\(claimant.stdout)\n\(claimant.stderr)")
        // PropertiesChanged lists only what changed: merge, as a client does.
        var object: [String: Any] = ["Roll": 0.0, "Pitch": 0.0]
        var previous: Int64 = -1
        for line in claimant.stdoutLines.dropFirst() {
            let changed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            object.merge(changed) { _, new in new }
            let timestamp = (object["Timestamp"] as? NSNumber)?.int64Value ?? -1
            let state = try #require(sent[timestamp], "no state was sent at \(timestamp): \(line)")
            // One signal per state at most: never twice the same state.
            #expect(timestamp > previous, "\(line) after t=\(previous)")
            previous = timestamp
            // D-Bus carries the doubles exactly; Foundation's JSON parser may
            // be off in the last bits of Python's shortest repr.
            let roll = try #require((object["Roll"] as? NSNumber)?.doubleValue)
            let pitch = try #require((object["Pitch"] as? NSNumber)?.doubleValue)
            #expect(abs(roll - state.tilt.roll) < 1e-12)
            #expect(abs(pitch - state.tilt.pitch) < 1e-12)
        }
        watcher.closeInput()
        #expect(watcher.waitFor { watcher.stdout.contains("received") })
        #expect(watcher.stdout.contains("received 0"), "\(watcher.stdout)")
    }

    /// A claimant that stops reading (SIGSTOP) while 100 states pass, each
    /// sent on its own (a live claimant gets each before the next): when it
    /// reads again it finds at most one signal waiting, then the newest
    /// state, not one signal per state.
    @Test func aClaimantThatStopsReadingMakesTheBusHoldOneSignalForIt() throws {
        let bus = try PrivateBus()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(hasAccelerometer: true),
                                      onClaimCountChanged: { _ in }, report: { _ in })
        defer { service.requestStop() }
        let stalled = try Self.client(bus, "claim")
        try #require(stalled.waitFor { stalled.stdout.contains("ready") }, "\(stalled.stderr)")
        let live = try Self.client(bus, "claim")
        try #require(live.waitFor { live.stdout.contains("ready") }, "\(live.stderr)")
        kill(stalled.innermostPID, SIGSTOP)
        for index in 0..<100 {
            service.emit(Self.state(index))
            try #require(live.waitFor { live.stdoutLines.count >= index + 2 }, "state \(index): \(live.stdout.suffix(500))")
        }
        kill(stalled.innermostPID, SIGCONT)
        let last = Self.state(99).tilt.timestampNanoseconds
        #expect(stalled.waitFor { stalled.stdout.contains("\(last)") }, "\(stalled.stdout.suffix(500))")
        // "ready", the signal in flight when it stopped reading (two if the
        // stop, which lands asynchronously, let one ping through), the newest
        // state; without flow control, one line per state (101).
        #expect(stalled.stdoutLines.count <= 4, "\(stalled.stdoutLines.count) lines: \(stalled.stdout.prefix(1_000))")
        // It reads again, so it gets the next state like anyone.
        service.emit(Self.state(100))
        let next = Self.state(100).tilt.timestampNanoseconds
        #expect(stalled.waitFor { stalled.stdout.contains("\(next)") })
    }

    /// A claimant that never answers loses its claim after the service's
    /// patience (here 1 s), so the device can close.
    @Test func aClaimantThatNeverReadsLosesItsClaim() throws {
        let bus = try PrivateBus()
        let log = ClaimLog()
        let reports = Mutex<[String]>([])
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(hasAccelerometer: true),
                                      claimantPatience: .seconds(1), onClaimCountChanged: log.record,
                                      report: { diagnostic in reports.withLock { $0.append("\(diagnostic.message)") } })
        defer { service.requestStop() }
        let stalled = try Self.client(bus, "claim")
        try #require(stalled.waitFor { stalled.stdout.contains("ready") }, "\(stalled.stderr)")
        kill(stalled.innermostPID, SIGSTOP)
        defer { kill(stalled.innermostPID, SIGCONT) }
        // SIGSTOP lands asynchronously: a claimant still running answers the
        // ping of a state sent meanwhile. States keep coming, as from a
        // device, until one finds it stopped.
        var index = 0
        #expect(stalled.waitFor(30) {
            service.emit(Self.state(index))
            index += 1
            return log.values == [1, 0]
        }, "\(log.values)")
        #expect(reports.withLock { $0 }.contains { $0.contains("read nothing") && $0.contains("claim is dropped") })
    }

    @Test func aClientThatDiesReleasesItsClaim() throws {
        let bus = try PrivateBus()
        let log = ClaimLog()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(hasAccelerometer: false),
                                      onClaimCountChanged: log.record, report: { _ in })
        defer { service.requestStop() }
        let client = try Self.client(bus, "claim", count: 3)
        var index = 0
        let ended = client.waitFor {
            service.emit(Self.state(index))
            index += 1
            return !client.isRunning
        }
        #expect(ended)
        #expect(client.waitFor { log.values == [1, 0] }, "\(log.values)")
        #expect(service.busProperty("HasAccelerometer") == .bool(true), "states prove an accelerometer")
    }

    /// The device opening says whether its gyroscope is
    /// fused (a device missing at start, or a gyroscope lost, is known then).
    @Test func theOpenedDeviceSetsHasGyroscope() throws {
        let bus = try PrivateBus()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(),
                                      onClaimCountChanged: { _ in }, report: { _ in })
        defer { service.requestStop() }
        let info = AccelerometerInfo.named(id: "iio:device0", name: "bmi160")
        let status = CaptureStatus(info: info, mode: .buffer, rateHertz: 200, clock: "monotonic")
        #expect(service.busProperty("HasGyroscope") == .bool(false))
        // Through the hub, as a run reports it.
        let hub = StateHub([service])
        hub.captureStatus(status, fusingGyroscope: true)
        #expect(service.busProperty("HasGyroscope") == .bool(true))
        #expect(service.busProperty("HasAccelerometer") == .bool(true))
        #expect(service.busProperty("Device") == .string("iio:device0 (bmi160)"))
        hub.captureStatus(status, fusingGyroscope: false)
        #expect(service.busProperty("HasGyroscope") == .bool(false))
    }

    @Test func releaseEndsTheClaimAndClaimsAreBounded() throws {
        let bus = try PrivateBus()
        let log = ClaimLog()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(), maximumClaims: 1,
                                      onClaimCountChanged: log.record, report: { _ in })
        defer { service.requestStop() }
        let first = try Self.client(bus, "claim")
        #expect(first.waitFor { first.stdout.contains("ready") })
        let second = try Self.client(bus, "claim")
        #expect(second.waitFor { !second.isRunning })
        #expect(second.stdout.contains("error: net.tiltd.Tilt1.Error.TooManyClaims"), "\(second.stdout)")
        first.closeInput()
        #expect(first.waitFor { log.values == [1, 0] }, "\(log.values)")
        let third = try Self.client(bus, "release")
        #expect(third.waitFor { third.stdout.contains("released") }, "\(third.stderr)")
        #expect(third.waitFor { log.values == [1, 0, 1, 0] }, "\(log.values)")
    }

    /// One user's connections cannot take every claim.
    @Test func oneUsersConnectionsHoldAtMostTheirShareOfClaims() throws {
        let bus = try PrivateBus()
        let log = ClaimLog()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(), maximumClaims: 64,
                                      maximumClaimsPerUser: 2, onClaimCountChanged: log.record, report: { _ in })
        defer { service.requestStop() }
        let holders = try (0..<2).map { _ in try Self.client(bus, "claim") }
        for holder in holders { #expect(holder.waitFor { holder.stdout.contains("ready") }, "\(holder.stderr)") }
        // Far below the 64 in all, but the same user (the test's) as the two above.
        let third = try Self.client(bus, "claim")
        #expect(third.waitFor { !third.isRunning })
        #expect(third.stdout.contains("error: net.tiltd.Tilt1.Error.TooManyClaims"), "\(third.stdout)")
        #expect(third.stdout.contains("this user's connections hold 2 claims"), "\(third.stdout)")
        #expect(log.values == [1, 2])
        // A claim given back makes room for the same user again.
        holders[0].closeInput()
        #expect(holders[0].waitFor { log.values == [1, 2, 1] }, "\(log.values)")
        let fourth = try Self.client(bus, "claim")
        #expect(fourth.waitFor { fourth.stdout.contains("ready") }, "\(fourth.stderr)")
        #expect(fourth.waitFor { log.values == [1, 2, 1, 2] }, "\(log.values)")
        _ = holders
    }

    @Test func aSecondServiceIsToldTheNameIsTaken() throws {
        let bus = try PrivateBus()
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(),
                                      onClaimCountChanged: { _ in }, report: { _ in })
        defer { service.requestStop() }
        #expect(throws: TiltBusError.nameTaken(name: "net.tiltd.Tilt", bus: "the bus at \(bus.address)")) {
            try TiltService(bus: .address(bus.address), properties: TiltProperties(),
                            onClaimCountChanged: { _ in }, report: { _ in })
        }
    }
}
