import ArgumentParser
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

    enum Track: String, ExpressibleByArgument, CaseIterable {
        case red, green, blue, alpha
        var component: ColourComponent { ColourComponent(rawValue: rawValue)! }
    }

    @OptionGroup var output: DrawOutputOptions

    @Option(help: ArgumentHelp("The colour, R,G,B,A (or R,G,B), each 0…1.", valueName: "R,G,B,A"))
    var color = "0.2,0.4,0.6,1"

    @Option(help: ArgumentHelp("Slider width in points (28…2000).", valueName: "pt"))
    var width = 280.0

    @Option(help: ArgumentHelp("Draw only this component's track.", valueName: "red|green|blue|alpha"))
    var track: Track?

    @Option(name: .customLong("track-height"), help: ArgumentHelp("Track height in points (1…100).", valueName: "pt"))
    var trackHeight = ColourSliderPainter.trackHeightPoints

    /// `--color` as a colour (valid once `validate()` has passed).
    var colour: RGBAColour {
        let v = ControlStill.numbers(color) ?? [0, 0, 0, 1]
        return RGBAColour(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
    }

    func validate() throws {
        try output.validatePixels(width, option: "--width", minimum: ColourSliderPainter.thumbDiameterPoints,
                                  maximum: 2000)
        try output.validatePixels(trackHeight, option: "--track-height", minimum: 1, maximum: 100)
        guard let v = ControlStill.numbers(color), v.count == 3 || v.count == 4, v.allSatisfy({ (0...1).contains($0) }) else {
            throw ValidationError("--color must be R,G,B,A (or R,G,B) with each part 0…1 such as 0.2,0.4,0.6,1, "
                                  + "got '\(color)'")
        }
    }

    func run() throws {
        if let track {
            let image = ColourSliderPainter.track(track.component, colour: colour, widthPoints: width,
                                                  heightPoints: trackHeight, scale: output.scale)
            try output.write(image, defaultName: "rgb-\(track.rawValue).png")
            return
        }
        try output.write(ControlStill.colourSliders(colour: colour, widthPoints: width, scale: output.scale),
                         defaultName: "rgb.png")
    }
}
