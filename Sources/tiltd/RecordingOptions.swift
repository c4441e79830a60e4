import ArgumentParser
import Motion
import Sensors
import Streaming

/// Options for reading a recording (trace or CSV), shared by `replay`,
/// `render` and `serve`: `@OptionGroup var recording: RecordingOptions`,
/// then `try recording.load(path)`.
struct RecordingOptions: ParsableArguments {
    /// `--units` values.
    enum UnitsArgument: String, ExpressibleByArgument, CaseIterable {
        case g
        case ms2

        var units: CSVUnits { self == .g ? .g : .metresPerSecondSquared }
    }

    @Option(help: ArgumentHelp(
        "Unit of a CSV's accel_x, accel_y, accel_z columns: ms2 (m/s²) or g. Traces are always m/s².",
        valueName: "g|ms2"))
    var units: UnitsArgument = .ms2

    /// Loads `path`, printing the recording's warnings (a torn last line)
    /// on stderr.
    ///
    /// - Throws: `RecordingLoadError`, whose description is one line naming
    ///   the file (and line) and what to do.
    func load(_ path: String) throws -> Recording {
        do {
            let recording = try Recording.load(path: path, units: units.units)
            for warning in recording.warnings { TiltdLog.logger.warning("\(warning)") }
            return recording
        } catch let error as TraceError {
            throw RecordingLoadError(message: error.description)
        }
    }
}
