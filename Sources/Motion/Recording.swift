/// A recording loaded for replay: a tiltd trace or a plain CSV.
public struct Recording: Sendable {
    /// Which kind of file it came from.
    public enum Format: String, Sendable {
        case trace
        case csv
    }

    /// The file's kind.
    public var format: Format
    /// The trace header; nil for CSV.
    public var header: TraceHeader?
    /// The samples in file order (m/s², device frame).
    public var readings: [Reading]
    /// Raw x, y, z per reading when the trace has them (NaN where a line
    /// lacked them); empty when no line had raw values.
    public var raw: [SIMD3<Double>]
    /// Raw gyro x, y, z per reading when the trace has them (NaN where a
    /// line lacked them); empty when no line had raw gyro values.
    public var rawRotation: [SIMD3<Double>]
    /// The gap markers.
    public var gaps: [TraceGap]
    /// Problems that did not stop the load (a torn last line), one line each,
    /// naming file and line.
    public var warnings: [String]

    public init(format: Format, header: TraceHeader?, readings: [Reading], raw: [SIMD3<Double>] = [],
                gaps: [TraceGap] = [], warnings: [String] = [], rawRotation: [SIMD3<Double>] = []) {
        self.format = format
        self.header = header
        self.readings = readings
        self.raw = raw
        self.rawRotation = rawRotation
        self.gaps = gaps
        self.warnings = warnings
    }

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

    /// Parses the bytes of a trace or CSV; `path` is only used in messages.
    public static func parse(_ bytes: [UInt8], path: String, units: CSVUnits = .metresPerSecondSquared,
                             gyroUnits: GyroUnits = .radiansPerSecond) throws -> Recording {
        try parse(bytes, path: path, units: units, gyroUnits: gyroUnits, continuation: false, lineOffset: 0)
    }

    /// See `TraceParser.init` for `continuation` and `lineOffset`.
    static func parse(_ bytes: [UInt8], path: String, units: CSVUnits, gyroUnits: GyroUnits,
                      continuation: Bool, lineOffset: Int) throws -> Recording {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = TraceParser(buffer: buffer, path: path, continuation: continuation, lineOffset: lineOffset)
            return try parser.parse(units: units, gyroUnits: gyroUnits)
        }
    }
}
