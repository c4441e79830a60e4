/// Why a trace or CSV recording could not be read or written.
public enum TraceError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened, read or written (errno text attached).
    case io(path: String, operation: String, reason: String)
    /// The file is neither a tiltd trace nor a CSV with the expected header.
    case unknownFormat(path: String, firstLine: String)
    /// The trace was written by a newer tiltd.
    case newerVersion(path: String, version: Int)
    /// A line (1-based) that does not parse.
    case malformed(path: String, line: Int, problem: String)
    /// A header key a writer may not use.
    case invalidHeaderKey(path: String, key: String)
    /// The writer was already closed.
    case closed(path: String)
    /// A sample with a gyro for a trace whose header has no gyro (format 1).
    case gyroInVersion1(path: String)

    /// One line; control characters from the file (or its name) are escaped.
    public var description: String {
        unescapedDescription.escapingControls()
    }

    private var unescapedDescription: String {
        switch self {
        case .io(let path, let operation, let reason):
            return "\(path): cannot \(operation): \(reason)"
        case .unknownFormat(let path, let firstLine):
            return "\(path):1: not a tiltd trace (\"\(TraceFormat.magic) N\") nor a CSV with header "
                + "\"time_s,accel_x,accel_y,accel_z\"; the first line is \"\(firstLine)\""
        case .newerVersion(let path, let version):
            return "\(path):1: trace format version \(version) was written by a newer tiltd; this tiltd "
                + "reads versions up to \(TraceFormat.currentVersion): upgrade tiltd to replay it"
        case .malformed(let path, let line, let problem):
            return "\(path):\(line): \(problem)"
        case .invalidHeaderKey(let path, let key):
            return "\(path): header key \"\(key)\" is not allowed: use lowercase letters, digits, '-', '_' or '.'"
        case .closed(let path):
            return "\(path): the trace writer is already closed"
        case .gyroInVersion1(let path):
            return "\(path): a sample carries a gyro but the trace was opened without gyro metadata "
                + "(format 1): give the header a gyro so it is written as format 2"
        }
    }
}
