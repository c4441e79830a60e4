import ArgumentParser

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

    /// Whether the page shows the slider.
    var showsSlider: Bool { levels || levelsFile != nil || controlVolume }

    func validate() throws {
        if levels, let levelsFile {
            throw ValidationError("--levels meters live audio and --levels-file \(levelsFile) replays a file: give one or the other")
        }
        if let levelsFile, levelsFile.isEmpty {
            throw ValidationError("--levels-file needs a file name (FILE.wav or FILE.jsonl)")
        }
        if let levelsSource {
            guard levels else { throw ValidationError("--levels-source \(levelsSource) chooses what --levels meters: add --levels") }
            if levelsSource.isEmpty { throw ValidationError("--levels-source needs a source name (see `pactl list short sources`)") }
        }
    }
}
