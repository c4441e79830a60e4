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

    /// `--gyro-units` values.
    enum GyroUnitsArgument: String, ExpressibleByArgument, CaseIterable {
        case rad
        case deg

        var units: GyroUnits { self == .deg ? .degreesPerSecond : .radiansPerSecond }
    }

    @Option(name: .customLong("gyro-units"), help: ArgumentHelp(
        "Unit of a CSV's gyro_x, gyro_y, gyro_z columns: rad (rad/s) or deg (°/s). Traces are always rad/s.",
        valueName: "rad|deg"))
    var gyroUnits: GyroUnitsArgument = .rad

    /// Loads `path`, printing the recording's warnings (a torn last line)
    /// on stderr.
    ///
    /// - Throws: `RecordingLoadError`, whose description is one line naming
    ///   the file (and line) and what to do.
    func load(_ path: String) throws -> Recording {
        do {
            let recording = try Recording.load(path: path, units: units.units, gyroUnits: gyroUnits.units)
            for warning in recording.warnings { TiltdLog.logger.warning("\(warning.escapingControls())") }
            return recording
        } catch let error as TraceError {
            throw RecordingLoadError(message: error.description)
        }
    }

    /// Opens `path` (`-`: standard input) to be read a block at a time.
    ///
    /// - Throws: `RecordingLoadError` naming the file.
    func open(_ path: String) throws -> RecordingReader {
        do { return try RecordingReader(path: path, units: units.units, gyroUnits: gyroUnits.units) } catch let error as TraceError {
            throw RecordingLoadError(message: error.description)
        }
    }

    /// The next block of `reader`, printing its warnings (a torn last line) on stderr.
    ///
    /// - Throws: `RecordingLoadError` naming the file and line.
    func next(_ reader: RecordingReader) throws -> Recording? {
        do {
            let block = try reader.next()
            for warning in block?.warnings ?? [] {
                TiltdLog.logger.warning("\(warning.escapingControls())")
            }
            return block
        } catch let error as TraceError {
            throw RecordingLoadError(message: error.description)
        }
    }
}
