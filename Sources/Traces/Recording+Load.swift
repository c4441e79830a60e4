import Motion

extension Recording {
    /// Loads a trace or a CSV with header `time_s,accel_x,accel_y,accel_z`
    /// (optionally followed by `gyro_x,gyro_y,gyro_z`); `path` `-` is standard input.
    ///
    /// The kind is recognised from the first line. A torn last line (no
    /// final newline, in a trace always; in a CSV when it does not parse) is
    /// skipped with a warning; any other bad line is an error.
    /// - Parameters:
    ///   - path: the file.
    ///   - units: the CSV's acceleration unit (traces are always m/s²).
    ///   - gyroUnits: the unit of a CSV's gyro columns (traces are always rad/s).
    /// - Throws: `TraceError` naming the file (and line) and what to do.
    public static func load(path: String, units: CSVUnits = .metresPerSecondSquared,
                            gyroUnits: GyroUnits = .radiansPerSecond) throws -> Recording {
        let bytes = try TraceFile.bytes(path: path)
        return try parse(bytes, path: TraceFile.displayName(path), units: units, gyroUnits: gyroUnits)
    }
}
