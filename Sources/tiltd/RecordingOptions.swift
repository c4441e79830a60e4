import ArgumentParser
import Devices
import Motion
import SamplePath

/// Options for reading a recording (trace or CSV), shared by `replay`,
/// `render` and `serve`: `@OptionGroup var recording: RecordingOptions`,
/// then `recording.units`, `recording.gyroUnits`
/// or `try recording.load(path)`.
struct RecordingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Unit of a CSV's accel_x, accel_y, accel_z columns: ms2 (m/s²) or g. Traces are always m/s².",
        valueName: "g|ms2"))
    var units: CSVUnits = .metresPerSecondSquared

    @Option(name: .customLong("gyro-units"), help: ArgumentHelp(
        "Unit of a CSV's gyro_x, gyro_y, gyro_z columns: rad (rad/s) or deg (°/s). Traces are always rad/s.",
        valueName: "rad|deg"))
    var gyroUnits: GyroUnits = .radiansPerSecond

    /// Loads `path` whole (`RecordingFile.load`: warnings logged, one-line errors).
    func load(_ path: String) throws -> Recording {
        try RecordingFile.load(path, units: units, gyroUnits: gyroUnits)
    }
}

extension CSVUnits: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["g", "ms2"] }
}
extension GyroUnits: ExpressibleByArgument {}
