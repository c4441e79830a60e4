import ArgumentParser
import Foundation
import Levels

/// `tiltd levels`: live left/right audio levels (PulseAudio or PipeWire's
/// pipewire-pulse), or levels replayed from a file, as JSON Lines.
struct LevelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "levels",
        abstract: "Stream live left/right audio levels (0…1) as JSON Lines.",
        discussion: """
            Meters what the machine plays (the default output's monitor) or --source, \
            about 144 times a second, through a PulseAudio peak-detect stream (PipeWire \
            desktops serve it through pipewire-pulse): {"t":…,"left":…,"right":…} with t in \
            seconds since the start and levels 0 (−60 dBFS or quieter) … 1 (full scale), \
            smoothed as LARSBar's demo did. If the server goes away the command keeps \
            running and reconnects. --levels-file replays a WAV (levels per 1/144 s) or a \
            levels JSON Lines file instead. Stops on SIGINT/SIGTERM or after --count lines \
            (exit 0). See docs/levels.md.
            """)

    @Option(help: ArgumentHelp("A PulseAudio source to meter (`pactl list short sources`); default: the default output's monitor.",
                               valueName: "name"))
    var source: String?

    @Option(help: ArgumentHelp("A libpulse server string (unix:PATH); default: PULSE_SERVER or the session's socket.",
                               valueName: "server"))
    var server: String?

    @Option(help: ArgumentHelp("Stop after this many lines.", valueName: "n"))
    var count: Int?

    @Option(name: .customLong("levels-file"),
            help: ArgumentHelp("Levels from a file instead: audio (FILE.wav) or levels JSON Lines (FILE.jsonl).",
                               valueName: "file"))
    var levelsFile: String?

    @Flag(help: "With --levels-file: pace the lines to the file's times.")
    var realtime = false

    func validate() throws {
        if let count, count <= 0 { throw ValidationError("--count must be a positive number of lines, not \(count)") }
        if let levelsFile {
            if levelsFile.isEmpty { throw ValidationError("--levels-file needs a file name (FILE.wav or FILE.jsonl)") }
            if source != nil || server != nil {
                throw ValidationError("--levels-file replays a file; --source and --server are for live levels, drop them")
            }
        } else if realtime {
            throw ValidationError("--realtime paces a --levels-file; live levels are real time already")
        }
        if let source, source.isEmpty { throw ValidationError("--source needs a source name (see `pactl list short sources`)") }
    }

    func run() async throws {
        let output = LevelsOutput(countLimit: count)
        // SIGINT/SIGTERM end the run cleanly (exit 0), as --count does.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { output.end() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        if let levelsFile {
            try await replay(levelsFile, to: output)
        } else {
            try await meter(to: output)
        }
        if output.failed { throw ExitCode.failure }
    }

    /// Live levels until the output ends.
    private func meter(to output: LevelsOutput) async throws {
        let meter: LevelMeter
        do {
            meter = try LevelMeter(source: source, server: server) { event in
                switch event {
                case let .levels(levels):
                    output.write(levels)
                case let .lost(server, reason):
                    LevelsOutput.report("warning: lost PulseAudio at \(server) (\(reason)); still running, reconnecting")
                case let .reconnected(server):
                    LevelsOutput.report("note: reconnected to PulseAudio at \(server); levels flow again")
                }
            }
            try await meter.start()
        } catch {
            LevelsOutput.report("error: \(error)")
            throw ExitCode.failure
        }
        await output.waitForEnd()
        meter.stop()
    }

    /// Every record of the file, optionally paced to its times, until the
    /// output ends.
    private func replay(_ path: String, to output: LevelsOutput) async throws {
        let track: LevelTrack
        do { track = try LevelTrack.load(path: path) } catch {
            LevelsOutput.report("error: \(error)")
            throw ExitCode.failure
        }
        let clock = ContinuousClock()
        let start = clock.now
        let firstSeconds = track.records.first?.seconds ?? 0
        for record in track.records where !output.isEnded {
            if realtime {
                try? await clock.sleep(until: start + .seconds(record.seconds - firstSeconds))
            }
            output.write(record)
        }
        output.end()
    }
}
