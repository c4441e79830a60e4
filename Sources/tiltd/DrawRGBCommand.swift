import ArgumentParser
import Commands
import Controls

/// `tiltd draw rgb`: the linked colour sliders, or one of their tracks.
struct DrawRGBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rgb",
        abstract: "Draw the linked colour sliders (red, green, blue, alpha) with a swatch, or one track.",
        discussion: """
            Without --track: the four sliders stacked under a 50 pt swatch of --color on white, \
            (width + 40) × 266 points. With --track: only that component's track, exactly \
            --width × --track-height points × --scale pixels; column x of w pixels shows --color \
            with that component at x/(w − 1), linear in 0–255 values.
            """)

    @OptionGroup var output: DrawOutputOptions

    @Option(help: ArgumentHelp("The colour, R,G,B,A (or R,G,B), each 0…1.", valueName: "R,G,B,A"))
    var color = "0.2,0.4,0.6,1"

    @Option(help: ArgumentHelp("Slider width in points (28…2000).", valueName: "pt"))
    var width = 280.0

    @Option(help: ArgumentHelp("Draw only this component's track.", valueName: "red|green|blue|alpha"))
    var track: ColourComponent?

    @Option(name: .customLong("track-height"), help: ArgumentHelp("Track height in points (1…100).", valueName: "pt"))
    var trackHeight = ColourSliderPainter.trackHeightPoints

    func validate() throws { _ = try still() }

    func still() throws -> ColourSlidersStill {
        try validating {
            try ColourSlidersStill(colour: color, widthPoints: width, track: track, trackHeightPoints: trackHeight)
        }
    }

    func run() throws {
        try output.write({ try still().image(scale: output.scale) }, defaultName: track.map { "rgb-\($0.rawValue).png" } ?? "rgb.png")
    }
}

extension ColourComponent: ExpressibleByArgument {}
