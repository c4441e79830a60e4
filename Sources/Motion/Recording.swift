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

    /// Parses the bytes of a trace or CSV; `path` is only used in messages.
    public static func parse(_ bytes: [UInt8], path: String, units: CSVUnits = .metresPerSecondSquared,
                             gyroUnits: GyroUnits = .radiansPerSecond) throws -> Recording {
        try parse(bytes, path: path, units: units, gyroUnits: gyroUnits, continuation: false, lineOffset: 0)
    }

    /// See `TraceParser.init` for `continuation` and `lineOffset`.
    package static func parse(_ bytes: [UInt8], path: String, units: CSVUnits, gyroUnits: GyroUnits,
                      continuation: Bool, lineOffset: Int) throws -> Recording {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = TraceParser(buffer: buffer, path: path, continuation: continuation, lineOffset: lineOffset)
            return try parser.parse(units: units, gyroUnits: gyroUnits)
        }
    }
}
