import Foundation
import Testing
import TiltdTestSupport

/// `tiltd run --dbus session` on a umockdev buffered accelerometer and a
/// private bus: what busctl and a Python client see of it.
@Suite(.enabled(if: PrivateBus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")), .timeLimit(.minutes(15)))
struct TiltdDBusTests {
    /// Starts tiltd on `bus` and waits until it owns net.tiltd.Tilt.
    static func startTiltd(on bus: PrivateBus, device: String = "buffered.umockdev",
                           script: String = "bench-200hz.script", options: [String] = []) throws -> ChildProcess {
        let tiltd = try ChildProcess.tiltdUnderUmockdev(device: device, script: script,
                                                        ["run", "--dbus", "session"] + options,
                                                        environment: bus.environment)
        let owned = tiltd.waitFor {
            guard let status = try? ChildProcess("/usr/bin/busctl", ["--user", "status", "net.tiltd.Tilt"],
                                                 environment: bus.environment) else { return false }
            _ = status.waitFor(10) { !status.isRunning }
            return status.stop(within: 1) == 0
        }
        #expect(owned, "tiltd never owned net.tiltd.Tilt: \(tiltd.stderr)")
        return tiltd
    }

    @Test func busctlIntrospectListsTheInterface() throws {
        let bus = try PrivateBus()
        let tiltd = try Self.startTiltd(on: bus)
        let introspect = try ChildProcess("/usr/bin/busctl", ["--user", "introspect", "net.tiltd.Tilt", "/net/tiltd/Tilt"],
                                          environment: bus.environment)
        #expect(introspect.waitFor { !introspect.isRunning })
        let listing = introspect.stdout
        for expected in ["net.tiltd.Tilt1", ".Claim", ".Release", ".HasAccelerometer", ".HasGyroscope", ".Orientation",
                         ".Tilt ", ".Roll", ".Pitch", ".Shine", "a(dd)", ".Timestamp", ".Device", ".Facing",
                         "\"iio:device0 (accel_3d)\"", "org.freedesktop.DBus.Introspectable",
                         "org.freedesktop.DBus.Peer", ".PropertiesChanged"] {
            #expect(listing.contains(expected), "\(expected) missing from:\n\(listing)")
        }
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")
        #expect(!tiltd.stderr.contains("device opened"), "nobody claimed, yet: \(tiltd.stderr)")
    }

    /// `busctl get-property` of one property, as busctl prints it ("b true").
    static func property(_ name: String, on bus: PrivateBus) throws -> String {
        let get = try ChildProcess("/usr/bin/busctl", ["--user", "get-property", "net.tiltd.Tilt", "/net/tiltd/Tilt",
                                                       "net.tiltd.Tilt1", name], environment: bus.environment)
        #expect(get.waitFor { !get.isRunning })
        return get.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// HasGyroscope was always false. It says whether the
    /// gyroscope is fused: before any claim (the paired gyro found at start),
    /// and once a claim has opened the device.
    @Test(arguments: [("combined-imu.umockdev", "combined-imu.script", [String](), "b true"),
                      ("combined-imu.umockdev", "combined-imu.script", ["--no-gyro"], "b false"),
                      ("buffered.umockdev", "bench-200hz.script", [], "b false")])
    func hasGyroscopeSaysWhetherAGyroscopeIsFused(device: String, script: String, options: [String],
                                                  expected: String) throws {
        let bus = try PrivateBus()
        let tiltd = try Self.startTiltd(on: bus, device: device, script: script, options: options)
        #expect(try Self.property("HasGyroscope", on: bus) == expected, "\(tiltd.stderr)")
        let client = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address,
                                                           "claim", "5"])
        #expect(client.waitFor(60) { !client.isRunning }, "\(client.stdout)\n\(client.stderr)\n\(tiltd.stderr)")
        #expect(tiltd.stderr.contains("device opened"), "\(tiltd.stderr)")
        #expect(try Self.property("HasGyroscope", on: bus) == expected, "\(tiltd.stderr)")
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")
    }

    /// A gyroscope lost mid-run (its buffer stops: sibling-gyro-dies.script)
    /// turns HasGyroscope false while the claim goes on.
    @Test func hasGyroscopeTurnsFalseWhenTheGyroscopeIsLost() throws {
        let bus = try PrivateBus()
        let tiltd = try ChildProcess("/usr/bin/umockdev-run", [
            "--device", ChildProcess.fixture("sibling-buffered.umockdev"),
            "-s", "/dev/iio:device0=\(ChildProcess.fixture("sibling-accel.script"))",
            "-s", "/dev/iio:device1=\(ChildProcess.fixture("sibling-gyro-dies.script"))",
            "--", ChildProcess.tiltd, "run", "--dbus", "session"], environment: bus.environment)
        #expect(tiltd.waitFor { (try? Self.property("HasGyroscope", on: bus)) == "b true" }, "\(tiltd.stderr)")
        let client = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address,
                                                           "claim", "0"])
        #expect(client.waitFor { client.stdout.contains("ready") }, "\(client.stderr)")
        #expect(tiltd.waitFor(60) { tiltd.stderr.contains("lost the gyroscope iio:device1") }, "\(tiltd.stderr)")
        #expect(tiltd.waitFor { (try? Self.property("HasGyroscope", on: bus)) == "b false" }, "\(tiltd.stderr)")
        client.closeInput()
        #expect(client.waitFor { !client.isRunning })
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")
    }

    /// With `--dbus`, the device opens on demand, and a socket client or a
    /// DSU subscriber is demand as much as a claim: each gets states with
    /// nobody claiming over D-Bus, and no `--on-demand` given.
    @Test func socketAndDSUClientsCountAsDemandWithoutAClaim() async throws {
        let bus = try PrivateBus()
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/s"
        let tiltd = try Self.startTiltd(on: bus, options: ["--listen", "unix:\(socketPath)", "--dsu", "0"])
        let port = try #require(DSUTestClient.port(in: tiltd.stderr), "\(tiltd.stderr)")
        #expect(!tiltd.stderr.contains("device opened"), "\(tiltd.stderr)")
        let line = try await TestThreadExecutor.offPool { () -> String? in
            let client = try SocketTestClient(path: socketPath)
            return client.readLine(timeout: 60)
        }
        #expect(line?.hasPrefix("{\"t\":") == true, "\(line ?? "no line"): \(tiltd.stderr)")
        let released = try await TestThreadExecutor.offPool {
            tiltd.waitFor { tiltd.stderr.contains("last client left: device released") }
        }
        #expect(released, "\(tiltd.stderr)")
        let dsu = try await DSUTestClient(serverPort: port)
        try await dsu.requestData()
        let packet = try await dsu.next(within: 60)
        #expect(packet.type == 0x100002)
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")
    }

    /// Once the last claimant has gone and the device is released, the
    /// properties say there is no current state (as before the first one)
    /// instead of keeping the last, stale one; `Facing` is listed.
    @Test func aReleasedDeviceLeavesNoStaleStateOnTheBus() throws {
        let bus = try PrivateBus()
        let tiltd = try Self.startTiltd(on: bus)
        #expect(try Self.property("Facing", on: bus) == #"s """#)
        let client = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address,
                                                           "claim", "5"])
        #expect(client.waitFor(60) { !client.isRunning }, "\(client.stdout)\n\(client.stderr)\n\(tiltd.stderr)")
        #expect(client.stdoutLines.count == 6, "five states reached the claimant: \(client.stdout)")
        #expect(tiltd.waitFor { tiltd.stderr.contains("last client left: device released") }, "\(tiltd.stderr)")
        #expect(tiltd.waitFor { (try? Self.property("Timestamp", on: bus)) == "t 0" },
                "Timestamp still \((try? Self.property("Timestamp", on: bus)) ?? "?")")
        #expect(try Self.property("Orientation", on: bus) == #"s "undefined""#)
        #expect(try Self.property("HasAccelerometer", on: bus) == "b true", "released, not lost")
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")
    }

    @Test func claimantGetsTheJSONLinesStatesAndItsDeathClosesTheDevice() throws {
        let bus = try PrivateBus()
        let tiltd = try Self.startTiltd(on: bus)
        let client = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address,
                                                           "claim", "40"])
        #expect(client.waitFor(60) { !client.isRunning }, "\(client.stdout)\n\(client.stderr)\n\(tiltd.stderr)")
        #expect(tiltd.waitFor { tiltd.stderr.contains("last client left: device released") }, "\(tiltd.stderr)")
        #expect(tiltd.stderr.contains("device opened"), "\(tiltd.stderr)")
        #expect(tiltd.stop() == 0, "\(tiltd.stderr)")

        // tiltd's own JSON Lines, by their `t` (µs).
        var lines: [String: [String: Any]] = [:]
        for line in tiltd.stdoutLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            guard let t = object["t"] as? NSNumber else { continue }
            lines[String(format: "%.6f", t.doubleValue)] = object
        }
        // PropertiesChanged lists only what changed since the values the
        // claimant would get from GetAll: merge, as a client does.
        var merged: [String: Any] = ["Roll": 0.0, "Pitch": 0.0, "Orientation": "undefined"]
        let signals = client.stdoutLines.dropFirst()  // "ready"
        #expect(signals.count == 40, "\(client.stdout)")
        for signal in signals {
            let changed = try JSONSerialization.jsonObject(with: Data(signal.utf8)) as? [String: Any] ?? [:]
            merged.merge(changed) { _, new in new }
            let nanoseconds = try #require((merged["Timestamp"] as? NSNumber)?.int64Value)
            let key = String(format: "%.6f", Double(nanoseconds) / 1e9)
            let line = try #require(lines[key], "no JSON line at t=\(key) for \(signal)")
            for (property, field) in [("Roll", "roll"), ("Pitch", "pitch")] {
                let bus = try #require((merged[property] as? NSNumber)?.doubleValue)
                let json = try #require((line[field] as? NSNumber)?.doubleValue)
                #expect(abs(bus - json) <= 0.00005 + 1e-12, "\(property) at t=\(key): \(bus) vs \(json)")
            }
            #expect(merged["Orientation"] as? String == line["orientation"] as? String, "t=\(key)")
        }
    }
}
