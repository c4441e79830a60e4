import ArgumentParser
import Foundation
import Levels
import RunCommandLine
import Streaming

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
        _ = try levelsSource()
    }

    func levelsSource() throws -> LevelsStream.Source {
        try validating { try LevelsStream.Source(levelsFile: levelsFile, realTime: realtime, source: source, server: server) }
    }

    func run() async throws {
        // SIGINT/SIGTERM end the run cleanly (exit 0), as --count does.
        let lifecycle = await Lifecycle.trappingSignals()
        do {
            try await lifecycle.runCommand([LevelsStream(source: levelsSource(), output: LevelsOutput(countLimit: count, report: { TiltdLog.log($0) }))])
        } catch is LevelsStream.Failed {
            throw ExitCode.failure
        }
    }
}
