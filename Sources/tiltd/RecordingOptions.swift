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

    /// Loads `path` whole (`RecordingFile.load`: warnings logged, one-line errors).
    func load(_ path: String) throws -> Recording {
        try RecordingFile.load(path, units: units.units, gyroUnits: gyroUnits.units)
    }

    /// Opens `path` (`-`: standard input) to be read a block at a time.
    func open(_ path: String) throws -> RecordingReader {
        try RecordingFile.open(path, units: units.units, gyroUnits: gyroUnits.units)
    }

    /// The next block of `reader`, its warnings logged.
    func next(_ reader: RecordingReader) throws -> Recording? {
        try RecordingFile.next(reader)
    }
}
