import Daemon
import Foundation
import Motion
import StateSocket
import Testing
import TiltdTestSupport

/// `tiltd replay`'s run in-process: the file is opened (or refused) at once,
/// and a paced replay serves its states on the `--listen` socket.
@Suite(.timeLimit(.minutes(15))) struct ReplayRunTests {
    @Test func aMissingFileFailsBeforeAnythingRuns() {
        #expect(throws: (any Error).self) {
            try ReplayRun(path: "/nonexistent/t.trace", units: .metresPerSecondSquared, gyroUnits: .radiansPerSecond,
                          pipeline: PipelineConfiguration(), pacedToTimestamps: false, listen: nil)
        }
    }

    @Test func aPacedReplayServesItsStatesOnTheSocket() async throws {
        let dir = try TestPaths.temporaryDirectory()
        // 60 s at 10 Hz, rolling, so every sample passes the gate: the client
        // connects well within it however loaded the machine is; the test
        // stops the replay once it has a state.
        let rows = (0..<600).map { index in
            let angle = Double(index) * 0.002
            return "\(Double(index) / 10),\(9.8 * sin(angle)),0,\(9.8 * cos(angle))"
        }
        let csv = dir + "/roll.csv"
        try (["time_s,accel_x,accel_y,accel_z"] + rows).joined(separator: "\n").write(toFile: csv, atomically: true,
                                                                                    encoding: .utf8)
        let socketPath = dir + "/s.sock"
        let replay = try ReplayRun(path: csv, units: .metresPerSecondSquared, gyroUnits: .radiansPerSecond,
                                   pipeline: PipelineConfiguration(), pacedToTimestamps: true,
                                   listen: SocketListenSettings(address: ListenAddress(path: socketPath)))
        // On a thread of its own: a full run's busy cooperative pool must not hold the replay up.
        let running = Task(executorPreference: TestThreadExecutor()) { try await replay.run(under: .withoutSignals) }
        let line = try await TestThreadExecutor.offPool { () -> String? in
            var client: SocketTestClient?
            _ = TestPaths.eventually(60) { client = try? SocketTestClient(path: socketPath); return client != nil }
            return client?.readLine(timeout: 30)
        }
        running.cancel()
        _ = try? await running.value
        let first = try #require(line)
        #expect(first.hasPrefix("{\"t\":"), "\(first)")
        // The run removed its socket file when it stopped.
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }
}
