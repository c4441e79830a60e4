import ArgumentParser
import Knob

/// `--light-color RRGGBB[AA]`: the colour of the light the knob's shines
/// reflect. An option group so every command that draws the knob (`render`,
/// `draw larsbar`, `serve`) takes it the same way:
/// `@OptionGroup var light: LightColourOptions`, then `light.colour`.
struct LightColourOptions: ParsableArguments {
    @Option(name: .customLong("light-color"), help: ArgumentHelp(
        "Colour of the light the shines reflect, RRGGBB or RRGGBBAA (alpha dims the shines; FFFFFF is white).",
        valueName: "RRGGBB[AA]"))
    var text = "FFFFFF"

    /// The parsed colour (valid once `validate()` has passed).
    var colour: LightColour { LightColour(hex: text) ?? .white }

    func validate() throws {
        guard LightColour(hex: text) != nil else {
            throw ValidationError(
                "--light-color must be six or eight hex digits RRGGBB[AA] such as FFC040 or FFC04080, got '\(text)'")
        }
    }
}
