import Bus
import Daemon
import Devices
import Foundation
import Motion
import StateSocket
import Testing
import TiltdTestSupport

/// `tiltd run`'s wiring in this process, against a umockdev accelerometer
/// that iiod serves on loopback: with `--on-demand` the device opens for the
/// first socket client, which gets every state until the count ends the run.
@Suite(.timeLimit(.minutes(15))) struct DeviceStateStreamTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/iiod")))
    func aSocketClientOpensTheDeviceAndGetsTheStatesUntilTheCount() async throws {
        let iiod = try IiodServer(device: "buffered.umockdev", script: "steady.script")
        let dir = try TestPaths.temporaryDirectory()
        var pipeline = PipelineConfiguration()
        pipeline.gateEnabled = false
        let stream = try DeviceStateStream(.init(
            capture: CaptureConfiguration(uri: iiod.uri), pipeline: pipeline, count: 3,
            listen: SocketListenSettings(address: ListenAddress(path: dir + "/s.sock")),
            openWhileSocketClients: true, version: "test"))
        defer { stream.close() }
        // On a thread of its own: a full run's busy cooperative pool must not hold the run up.
        let running = Task(executorPreference: TestThreadExecutor()) { try await stream.run(under: .withoutSignals) }
        let lines = try await TestThreadExecutor.offPool { () -> [String] in
            let client = try SocketTestClient(path: dir + "/s.sock")
            var lines: [String] = []
            while lines.count < 3, let line = client.readLine(timeout: 30) { lines.append(line) }
            return lines
        }
        // Without states (the device never opened) the run would wait for ever: stop it then.
        if lines.count < 3 { running.cancel() }
        try await running.value
        // steady.script: three scans 10 ms apart from t = 1000 s, every one a state without the gate.
        #expect(lines.map { $0.hasPrefix("{\"t\":1000") } == [true, true, true], "\(lines)")
    }

    /// The D-Bus service is started with the stream: a bus nobody serves
    /// fails the start with `BusUnavailable`, naming the bus, and the socket
    /// already made for `--listen` is gone again.
    @Test func aBusThatCannotBeReachedFailsTheStartAndLeavesNoSocket() throws {
        let dir = try TestPaths.temporaryDirectory()
        let socketPath = dir + "/s.sock", busPath = dir + "/no-bus"
        #expect {
            _ = try DeviceStateStream(.init(
                capture: CaptureConfiguration(uri: "local:"), pipeline: PipelineConfiguration(),
                listen: SocketListenSettings(address: ListenAddress(path: socketPath)),
                bus: .address("unix:path=" + busPath), version: "test"))
        } throws: { error in
            guard let error = error as? DeviceStateStream.BusUnavailable else { return false }
            return error.bus == .address("unix:path=" + busPath)
        }
        #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket file was left behind")
    }
}
