import DSU
import Motion
import SamplePath
import ServiceLifecycle
import StateSocket
import Traces

/// `tiltd replay`, run: a recording streamed a block at a time through the
/// pipeline to stdout (and a `Setting.listen` socket), at once or paced to its
/// timestamps, then what it saw (no samples, gaps) on stderr.
///
/// Streamed so memory stays bounded for any input and a pipe is replayed
/// as it arrives.
public struct ReplayRun {
    /// The recording as named (`-`: standard input), for messages.
    public let path: String
    private let reader: RecordingReader
    private let pipeline: PipelineConfiguration
    private let pacedToTimestamps: Bool
    private let listen: SocketListenSettings?

    /// Opens the recording (so a missing or unreadable file fails before
    /// anything else starts).
    ///
    /// - Parameters:
    ///   - units, gyroUnits: a CSV's units (traces say their own).
    ///   - pacedToTimestamps: `Setting.realtime`: each state at its recording
    ///     time, every line flushed.
    ///   - listen: also serve the states on this socket (paced runs only).
    /// - Throws: `RecordingFile.open`'s one-line error.
    public init(path: String, units: CSVUnits, gyroUnits: GyroUnits, pipeline: PipelineConfiguration,
                pacedToTimestamps: Bool, listen: SocketListenSettings?) throws {
        self.path = path
        reader = try RecordingFile.open(path, units: units, gyroUnits: gyroUnits)
        self.pipeline = pipeline
        self.pacedToTimestamps = pacedToTimestamps
        self.listen = listen
    }

    /// Replays the whole recording.
    ///
    /// - Parameters:
    ///   - lifecycle: runs a paced replay and the socket (a signal
    ///   stops them); nil (or a replay not paced) replays at once with no
    ///   services, as fast as the pipeline goes (Ctrl-C keeps its default action).
    ///   - dsu: also serve the motion to emulators on this UDP address
    ///   (`Setting.dsu`, paced runs only; its battery from UPower).
    /// - Throws: a parse error of the recording, the socket's
    ///   `UnixSocketError`, the DSU server's bind error.
    public func run(under lifecycle: Lifecycle?, dsu address: DSUAddress? = nil) async throws {
        var dsu: DSUServer?
        if let address { dsu = try await DSUServer.startReportingBattery(on: address) }
        defer { dsu?.close() }
        let tally = ReplayTally()
        let reader = self.reader
        let source = ReplaySource.blocks {
            guard let block = try RecordingFile.next(reader) else { return nil }
            tally.add(block)
            return block.readings
        }
        let socket = try listen?.startServer()
        defer { socket?.close() }
        let stdout = StdoutSink(flushEachLine: pacedToTimestamps)
        let others = [socket as (any StateSink)?, dsu].compactMap { $0 }
        let sink: any StateSink = others.isEmpty ? stdout : StateHub([stdout] + others)
        let sampleRun = SampleRun(configuration: pipeline, sink: sink, reporter: DiagnosticReporter(subject: path))
        var stoppedEarly = false
        if let lifecycle, pacedToTimestamps {
            let replay = ReplayService(source: source, sampleRun: sampleRun)
            let services: [(any Service)?] = [stdout.watch, socket, dsu, replay]
            do {
                try await lifecycle.run(services.compactMap { $0 })
            } catch {
                await stdout.close(waitingAtMost: StdoutSink.stopWait)
                throw error
            }
            await stdout.close(waitingAtMost: lifecycle.stoppingSignalName == nil ? StdoutSink.endWait : StdoutSink.stopWait)
            stoppedEarly = replay.stoppedEarly
        } else {
            // Nothing to pace and nothing to wait for: no lifecycle needed.
            try sampleRun.process(source, while: { stdout.failure == nil })
            sampleRun.finish()
            if let failure = stdout.failure { throw failure }
        }
        tally.report(file: path, stoppedEarly: stoppedEarly)
    }
}
