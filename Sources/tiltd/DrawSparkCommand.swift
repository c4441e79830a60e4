import ArgumentParser
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

    /// `--holds` as numbers (valid once `validate()` has passed).
    var holdSeconds: [Double] { holds.isEmpty ? [] : ControlStill.numbers(holds) ?? [] }

    func validate() throws {
        try output.validatePixels(size, option: "--size", minimum: RecordingRingPainter.minimumSizePoints, maximum: 2000)
        guard duration.isFinite, duration > 0, duration <= 86_400 else {
            throw ValidationError("--duration must be more than 0 and at most 86400 seconds, got \(duration)")
        }
        if !holds.isEmpty {
            guard let v = ControlStill.numbers(holds), v.allSatisfy({ $0 >= 0 }) else {
                throw ValidationError("--holds must be seconds ≥ 0 separated by commas such as 2,3.5, got '\(holds)'")
            }
        }
    }

    func run() throws {
        try output.write(ControlStill.recordingRing(sizePoints: size, durationSeconds: duration, holdSeconds: holdSeconds,
                                                    seed: seed, scale: output.scale), defaultName: "spark.png")
    }
}
