import ArgumentParser
import Commands
import Controls

/// `tiltd draw larsbar`: the LARSBar EQ volume slider with the tilt knob as
/// its thumb.
struct DrawLARSBarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larsbar",
        abstract: "Draw the EQ volume slider: two rows of lights (left and right channel) and the knob as thumb.",
        discussion: """
            The image is --width × --height points × --scale pixels on the original's body colour, \
            light rows centred 8 pt above and below the middle; lights left of the thumb are \
            active, and floor(N × level × value) of each row are lit (settled, no fade). \
            The thumb's shines come from --roll and --pitch as for a live tilt.
            """)

    @OptionGroup var output: DrawOutputOptions
    @OptionGroup var light: LightColourOptions

    @Option(help: ArgumentHelp("Slider width in points (20…2000); 280 gives the demo's 40 lights.", valueName: "pt"))
    var width = 280.0

    @Option(help: ArgumentHelp("Slider height in points (28…400).", valueName: "pt"))
    var height = EQSliderLayout.defaultHeightPoints

    @Option(help: ArgumentHelp("The slider's value, 0…1.", valueName: "v"))
    var value = 0.5

    @Option(help: ArgumentHelp("Left and right channel levels, each 0…1.", valueName: "L,R"))
    var levels = "0.5,0.5"

    // `.unconditional`: the next word is the value even when it starts with
    // "-", so negative angles need no "=".
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Roll of the tilt the thumb shines from, radians.", valueName: "radians"))
    var roll = 0.0

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Pitch of the tilt the thumb shines from, radians.", valueName: "radians"))
    var pitch = 0.0

    func validate() throws { _ = try still() }

    func still() throws -> EQSliderStill {
        try validating {
            try EQSliderStill(widthPoints: width, heightPoints: height, value: value, levels: levels,
                              rollRadians: roll, pitchRadians: pitch)
        }
    }

    func run() throws {
        try output.write({ try still().image(light: light.colour, scale: output.scale) }, defaultName: "larsbar.png")
    }
}
