import ArgumentParser
import Commands
import Serve
import Web

/// `serve`'s options for the page's controls (docs/controls.md): the
/// recording ring and whether viewers may change the light's colour (the
/// starting colour is `--light-color`, `LightColourOptions`).
struct ServeControlOptions: ParsableArguments {
    @Option(name: .customLong("record-dir"), help: ArgumentHelp(
        "Show the recording ring: holding it on the page records the motion into a trace in this directory.",
        valueName: "dir"))
    var recordDirectory: String?

    @Option(name: .customLong("record-limit"), parsing: .unconditional, help: ArgumentHelp(
        "With --record-dir: the longest recording, the ring's full circle, in seconds (1…600; default 45).",
        valueName: "seconds"))
    var recordLimit: Double?

    @Option(name: .customLong("record-keep"), parsing: .unconditional, help: ArgumentHelp(
        "With --record-dir: keep the newest N recordings there, deleting the ring's older ones (default 32).",
        valueName: "n"))
    var recordKeep: Int?

    @Option(name: .customLong("record-max-mib"), parsing: .unconditional, help: ArgumentHelp(
        "With --record-dir: keep the ring's recordings there within this many MiB together, deleting the oldest "
            + "(default 64).", valueName: "mib"))
    var recordMaximumMebibytes: Int?

    @Flag(help: "Let viewers set the light's colour with the page's sliders (otherwise they only show it).")
    var interactive = false

    func validate() throws { _ = try ring() }

    /// The ring `--record-dir` asks for, checked, or nil without it.
    func ring() throws -> ServeConfiguration.Ring? {
        guard let recordDirectory else {
            if let recordLimit {
                throw ValidationError("--record-limit \(recordLimit) sets how long the ring records: give --record-dir DIR too")
            }
            if let recordKeep {
                throw ValidationError("--record-keep \(recordKeep) caps the ring's recordings: give --record-dir DIR too")
            }
            if let recordMaximumMebibytes {
                throw ValidationError("--record-max-mib \(recordMaximumMebibytes) caps the ring's recordings: "
                    + "give --record-dir DIR too")
            }
            return nil
        }
        return try validating {
            try ServeConfiguration.Ring(directory: recordDirectory,
                                        limitSeconds: recordLimit ?? ServeConfiguration.Ring.defaultLimitSeconds,
                                        keep: recordKeep ?? WebRingRecorder.defaultKeep,
                                        maximumMebibytes: recordMaximumMebibytes ?? WebRingRecorder.defaultMaximumMebibytes)
        }
    }
}
