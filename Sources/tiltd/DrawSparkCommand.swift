import ArgumentParser
import Commands
import Controls

/// `tiltd draw spark`: the Spark Camera recording ring after some holds.
struct DrawSparkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spark",
        abstract: "Draw the recording ring after holds of H1, H2, … seconds (oldest first, each released).",
        discussion: """
            The image is --size × --size points × --scale pixels, on white, centred on a ring of \
            radius size/2 − 20 points drawn with a 7 pt flat-ended stroke. Each hold is a \
            segment of hold/duration of the circle, newest first from 9 o'clock counter-clockwise; \
            holds past the duration fill the ring and later ones are ignored, as in the original. \
            Segment colours are random HSB from --seed.
            """)

    @OptionGroup var output: DrawOutputOptions

    @Option(help: ArgumentHelp("Side of the square in points (48…2000); 320 gives the demo's radius 140.",
                               valueName: "pt"))
    var size = 320.0

    @Option(help: ArgumentHelp("Seconds the whole circle stands for (> 0).", valueName: "seconds"))
    var duration = RecordingRing.defaultDurationSeconds

    @Option(help: ArgumentHelp("Hold lengths in seconds, oldest first, each ≥ 0 (0 is a tap).", valueName: "H1,H2,…"))
    var holds = ""

    @Option(help: ArgumentHelp("Seed of the segment colours.", valueName: "n"))
    var seed: UInt64 = 0

    func validate() throws { _ = try still() }

    func still() throws -> RecordingRingStill {
        try validating { try RecordingRingStill(sizePoints: size, durationSeconds: duration, holds: holds, seed: seed) }
    }

    func run() throws {
        try output.write({ try still().image(scale: output.scale) }, defaultName: "spark.png")
    }
}
