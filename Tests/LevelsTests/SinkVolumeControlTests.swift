import Foundation
@testable import Levels
import Testing
import TiltdTestSupport

/// The default sink's volume both ways against a real server: set through
/// the library and seen by `pactl`; set by `pactl` and seen by the subscription.
@Suite(.serialized, .timeLimit(.minutes(15))) struct SinkVolumeControlTests {
    /// libpulse volumes are integers of 1/65536: fractions match to one step.
    static let tolerance = 1.0 / 65536

    /// The per-channel raw volumes `pactl get-sink-volume test` prints
    /// ("front-left: 19661 /  30% / …").
    static func pactlChannelVolumes(_ server: PulseTestServer) throws -> [Int] {
        let result = try server.pactl(["get-sink-volume", "test"])
        try #require(result.status == 0, "pactl get-sink-volume failed: \(result.stderr)")
        let firstLine = result.stdout.split(separator: "\n").first ?? ""
        return firstLine.split(separator: ",").compactMap { part in
            part.split(separator: ":").last?.split(separator: "/").first
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test func volumeSetThroughTheLibraryIsSeenByPactl() async throws {
        try await PulseTestServer.with { server in
            let control = try SinkVolumeControl(server: server.server)
            defer { control.close() }
            try await control.connect()
            try await control.setVolume(fraction: 0.3)
            // 0.3 × 65536 = 19660.8 → 19661 on both channels.
            #expect(try Self.pactlChannelVolumes(server) == [19661, 19661])
            let volume = try await control.volume()
            #expect(volume.sinkName == "test")
            #expect(abs(volume.fraction - 0.3) <= Self.tolerance)
        }
    }

    @Test func settingKeepsTheBalanceBetweenChannels() async throws {
        try await PulseTestServer.with { server in
            #expect(try server.pactl(["set-sink-volume", "test", "40%", "20%"]).status == 0)
            let control = try SinkVolumeControl(server: server.server)
            defer { control.close() }
            try await control.connect()
            try await control.setVolume(fraction: 0.8)
            let channels = try Self.pactlChannelVolumes(server)
            try #require(channels.count == 2)
            #expect(abs(Double(channels[0]) / 65536 - 0.8) <= 2 * Self.tolerance)
            #expect(abs(Double(channels[1]) / 65536 - 0.4) <= 2 * Self.tolerance)
        }
    }

    @Test func pactlChangeIsSeenByTheSubscription() async throws {
        try await PulseTestServer.with { server in
            let control = try SinkVolumeControl(server: server.server)
            defer { control.close() }
            try await control.connect()
            let changes = EventRecorder<SinkVolume>()
            try await control.subscribe { changes.add($0) }
            // First the current volume (the null sink starts at 100 %).
            #expect(await changes.wait { !$0.isEmpty })
            #expect(abs((changes.snapshot.first?.fraction ?? 0) - 1) <= Self.tolerance)

            #expect(try server.pactl(["set-sink-volume", "test", "45%"]).status == 0)
            #expect(await changes.wait { $0.contains { abs($0.fraction - 0.45) <= Self.tolerance } },
                    "saw \(changes.snapshot.map(\.fraction))")
            #expect(try server.pactl(["set-sink-mute", "test", "1"]).status == 0)
            #expect(await changes.wait { $0.last?.muted == true })
        }
    }

    @Test func noServerIsAClearError() async throws {
        let socket = "unix:/nonexistent-\(UUID().uuidString)/pulse/native"
        let control = try SinkVolumeControl(server: socket)
        defer { control.close() }
        await #expect(throws: PulseError.self) { try await control.connect() }
        await #expect {
            try await control.volume()
        } throws: { error in
            "\(error)".contains(socket) && "\(error)".contains("not connected")
        }
    }

    @Test func scalingKeepsRatiosAndHandlesSilentChannels() {
        #expect(SinkVolume.scaled([65536, 32768], to: 0.5) == [32768, 16384])
        #expect(SinkVolume.scaled([0, 0], to: 0.25) == [16384, 16384])
        #expect(SinkVolume.scaled([100], to: -1) == [0])
    }
}
