import ArgumentParser
import Commands
import Serve
import Web

/// `tiltd serve`'s options for the LARSBar volume slider beside the knob.
struct ServeLevelsOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Show the LARSBar volume slider with live left/right levels of what the machine plays "
                             + "(PulseAudio, or PipeWire through pipewire-pulse)."))
    var levels = false

    @Option(name: .customLong("levels-source"), help: ArgumentHelp(
        "With --levels: the PulseAudio source to meter (`pactl list short sources`); default: the default output's monitor.",
        valueName: "name"))
    var levelsSource: String?

    @Option(name: .customLong("levels-file"), help: ArgumentHelp(
        "Show the slider with levels replayed (looping, in real time) from a file: audio (FILE.wav) or levels "
            + "JSON Lines (FILE.jsonl, as `tiltd levels` writes).", valueName: "file"))
    var levelsFile: String?

    @Flag(name: .customLong("control-volume"), help: ArgumentHelp(
        "Let the page's slider set the default sink's volume (PulseAudio); a change made elsewhere moves the "
            + "slider. Without it the slider only shows the volume, and the server refuses any input."))
    var controlVolume = false

    func validate() throws { _ = try settings() }

    func settings() throws -> ServeSlider.Settings {
        try validating {
            try ServeSlider.Settings(liveLevels: levels, levelsSource: levelsSource, levelsFile: levelsFile,
                                     controlVolume: controlVolume)
        }
    }
}
