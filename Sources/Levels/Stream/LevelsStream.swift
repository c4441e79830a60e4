import Foundation
import ServiceLifecycle

/// `tiltd levels` as a service of the lifecycle: live levels from a
/// PulseAudio meter, or the records of a level file (optionally paced to
/// their times), written to a `LevelsOutput` until it ends (its line limit,
/// a failed write) or the group shuts down (SIGINT, SIGTERM), which ends it
/// cleanly with status 0 as a limit does.
public struct LevelsStream: Service {
    /// Where the levels come from.
    public enum Source: Sendable {
        /// Live: a PulseAudio source (nil: the default output's monitor) on a server (nil: the session's).
        case live(source: String?, server: String?)
        /// A WAV or levels JSON Lines file; `realTime` paces it to its times.
        case file(path: String, realTime: Bool)
    }

    public let source: Source
    public let output: LevelsOutput

    /// The failure already reported on stderr (`tiltd: error: …`): the command exits 1 without more.
    public struct Failed: Error {}

    public init(source: Source, output: LevelsOutput) {
        self.source = source
        self.output = output
    }

    public func run() async throws {
        let output = self.output
        try await withGracefulShutdownHandler {
            switch source {
            case let .live(source, server): try await meter(source: source, server: server)
            case let .file(path, realTime): try await replay(path, realTime: realTime)
            }
        } onGracefulShutdown: {
            output.end()
        }
        if output.failed { throw Failed() }
    }

    /// Live levels until the output ends; a lost server is reported and reconnected.
    private func meter(source: String?, server: String?) async throws {
        let output = self.output
        let meter: LevelMeter
        do {
            meter = try LevelMeter(source: source, server: server) { event in
                switch event {
                case let .levels(levels):
                    output.write(levels)
                case let .lost(server, reason):
                    output.report(.warning("lost PulseAudio at \(server) (\(reason)); still running, reconnecting"))
                case let .reconnected(server):
                    output.report(.notice("note: reconnected to PulseAudio at \(server); levels flow again"))
                }
            }
            try await meter.start()
        } catch {
            output.report(.error("\(error)"))
            throw Failed()
        }
        await output.waitForEnd()
        meter.stop()
    }

    /// Every record of the file, optionally paced to its times, until the output ends.
    private func replay(_ path: String, realTime: Bool) async throws {
        let track: LevelTrack
        do { track = try LevelTrack.load(path: path) } catch {
            output.report(.error("\(error)"))
            throw Failed()
        }
        let clock = ContinuousClock()
        let start = clock.now
        let firstSeconds = track.records.first?.seconds ?? 0
        for record in track.records where !output.isEnded {
            if realTime {
                try? await clock.sleep(until: start + .seconds(record.seconds - firstSeconds))
            }
            output.write(record)
        }
        output.end()
    }
}
