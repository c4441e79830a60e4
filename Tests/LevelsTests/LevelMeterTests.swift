import Foundation
@testable import Levels
import Testing
import TiltdTestSupport

/// Live levels from a real PulseAudio server with a null sink: what is
/// played into the sink shows on its monitor.
///
/// Response times are counted in updates (1/144 s of audio each), not in
/// wall-clock time, so a loaded machine cannot fail them: 72 updates = 0.5 s.
@Suite(.serialized, .timeLimit(.minutes(15))) struct LevelMeterTests {
    static let halfSecondOfUpdates = LevelMeter.defaultUpdatesPerSecond / 2

    /// Starts a meter on `server` that records every event.
    static func startMeter(_ server: PulseTestServer, source: String? = nil)
        async throws -> (LevelMeter, EventRecorder<LevelMeter.Event>) {
        let events = EventRecorder<LevelMeter.Event>()
        let meter = try LevelMeter(source: source, server: server.server) { events.add($0) }
        try await meter.start()
        return (meter, events)
    }

    static func levels(_ events: [LevelMeter.Event]) -> [ChannelLevels] {
        events.compactMap { if case let .levels(levels) = $0 { return levels } else { return nil } }
    }

    @Test func toneRaisesBothLevelsWithinHalfASecondAndSilenceDropsThem() async throws {
        let files = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: files) }
        let tone = try ToneFile.make(in: files, name: "tone.wav", seconds: 1)
        try await PulseTestServer.with { server in
            let (meter, events) = try await Self.startMeter(server)
            defer { meter.stop() }
            #expect(await events.wait { Self.levels($0).count >= 30 }, "no levels from the null sink's monitor")
            #expect(Self.levels(events.snapshot).allSatisfy { $0.left < 0.1 && $0.right < 0.1 }, "silence is not dark")

            let player = try server.play(tone)
            defer { ExternalProgram.waitForExit(player, timeoutSeconds: 30) }
            #expect(await events.wait { Self.levels($0).contains { $0.left > 0.5 && $0.right > 0.5 } })
            // After the tone: silence again.
            #expect(await events.wait { events in
                let all = Self.levels(events)
                guard let lastLoud = all.lastIndex(where: { $0.left > 0.5 && $0.right > 0.5 }) else { return false }
                return all[lastLoud...].contains { $0.left < 0.1 && $0.right < 0.1 }
            })

            let all = Self.levels(events.snapshot)
            let firstSound = try #require(all.firstIndex { max($0.left, $0.right) > 0.01 })
            let firstLoud = try #require(all.firstIndex { $0.left > 0.5 && $0.right > 0.5 })
            #expect(firstLoud - firstSound <= Self.halfSecondOfUpdates)
            let lastLoud = try #require(all.lastIndex { $0.left > 0.5 && $0.right > 0.5 })
            let quiet = try #require(all[lastLoud...].firstIndex { $0.left < 0.1 && $0.right < 0.1 })
            #expect(quiet - lastLoud <= Self.halfSecondOfUpdates)
            // A 0.5-peak sine peaks at −6.02 dBFS: the level settles at 0.8997.
            #expect(all[firstLoud...lastLoud].contains { abs($0.left - 0.8997) < 0.01 })
            // Updates are time-ordered.
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.seconds <= $1.seconds })
        }
    }

    @Test func leftOnlyToneLightsOnlyTheLeftRow() async throws {
        let files = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: files) }
        let tone = try ToneFile.make(in: files, name: "left.wav", seconds: 1, leftOnly: true)
        try await PulseTestServer.with { server in
            let (meter, events) = try await Self.startMeter(server, source: "test.monitor")
            defer { meter.stop() }
            #expect(await events.wait { !Self.levels($0).isEmpty })
            let player = try server.play(tone)
            ExternalProgram.waitForExit(player, timeoutSeconds: 30)
            #expect(await events.wait { Self.levels($0).contains { $0.left > 0.8 } })
            let all = Self.levels(events.snapshot)
            #expect(all.allSatisfy { $0.right < 0.1 }, "the silent right channel lit: \(all.map(\.right).max() ?? 0)")
        }
    }

    @Test func unknownSourceIsRefusedWithWhatToDo() async throws {
        try await PulseTestServer.with { server in
            let meter = try LevelMeter(source: "no-such-source", server: server.server) { _ in }
            defer { meter.stop() }
            await #expect {
                try await meter.start()
            } throws: { error in
                guard case let .noSource(source, where_, _)? = error as? PulseError else { return false }
                return source == "no-such-source" && where_ == server.server
                    && "\(error)".contains("pactl list short sources")
            }
        }
    }

    @Test func noServerSaysWhereItLookedAndHowToStartOne() async throws {
        let socket = "unix:/nonexistent-\(UUID().uuidString)/pulse/native"
        let meter = try LevelMeter(server: socket) { _ in }
        defer { meter.stop() }
        await #expect {
            try await meter.start()
        } throws: { error in
            guard case let .noServer(server, _)? = error as? PulseError else { return false }
            let text = "\(error)"
            return server == socket && text.hasPrefix("no PulseAudio server at \(socket)")
                && text.contains("pulseaudio --start") && text.contains("pipewire-pulse") && !text.contains("\n")
        }
    }

    @Test func defaultServerIsNamedFromTheEnvironment() {
        #expect(PulseServerAddress.describe(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])
                == "unix:/run/user/1000/pulse/native")
        #expect(PulseServerAddress.describe(nil, environment: ["PULSE_SERVER": "tcp:localhost",
                                                               "XDG_RUNTIME_DIR": "/run/user/1000"])
                == "tcp:localhost (from PULSE_SERVER)")
        #expect(PulseServerAddress.describe("unix:/x", environment: [:]) == "unix:/x")
    }

    @Test func serverGoingAwayIsReportedAndTheMeterReconnects() async throws {
        let first = try PulseTestServer()
        defer { first.stop() }
        let (meter, events) = try await Self.startMeter(first)
        defer { meter.stop() }
        #expect(await events.wait { !Self.levels($0).isEmpty })
        first.stop(keepFolder: true)
        #expect(await events.wait { $0.contains { if case .lost = $0 { true } else { false } } })

        let second = try PulseTestServer(folder: first.folder)
        defer { second.stop() }
        #expect(await events.wait { $0.contains(.reconnected(server: first.server)) })
        let countAtReconnect = Self.levels(events.snapshot).count
        #expect(await events.wait { Self.levels($0).count > countAtReconnect + 10 }, "no levels after reconnecting")
        // One loss, reported once, however many retries it took.
        #expect(events.snapshot.filter { if case .lost = $0 { true } else { false } }.count == 1)
    }

    @Test func sourceGoingAwayIsReportedAndFoundAgain() async throws {
        try await PulseTestServer.with { server in
            let (meter, events) = try await Self.startMeter(server, source: "test.monitor")
            defer { meter.stop() }
            #expect(await events.wait { !Self.levels($0).isEmpty })
            // DONT_MOVE: the stream ends with its source instead of moving elsewhere.
            #expect(try server.pactl(["unload-module", "module-null-sink"]).status == 0)
            #expect(await events.wait { $0.contains { if case .lost = $0 { true } else { false } } })
            #expect(try server.pactl(["load-module", "module-null-sink", "sink_name=test"]).status == 0)
            #expect(await events.wait { $0.contains(.reconnected(server: server.server)) })
        }
    }
}
