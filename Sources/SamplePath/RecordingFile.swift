import Motion
import Traces

/// Reading a recording (a tiltd trace or a CSV) for `replay`, `render` and
/// `serve`: its warnings (a torn last line) go to the log, and a file that
/// cannot be read becomes one `RecordingLoadError` naming the file and line.
public enum RecordingFile {
    /// The whole recording at `path`.
    ///
    /// - Throws: `RecordingLoadError`, one line naming the file (and line) and what to do.
    public static func load(_ path: String, units: CSVUnits, gyroUnits: GyroUnits) throws -> Recording {
        loggingWarnings(try mapping { try Recording.load(path: path, units: units, gyroUnits: gyroUnits) })
    }

    /// Opens `path` (`-`: standard input) to be read a block at a time.
    ///
    /// - Throws: `RecordingLoadError` naming the file.
    public static func open(_ path: String, units: CSVUnits, gyroUnits: GyroUnits) throws -> RecordingReader {
        try mapping { try RecordingReader(path: path, units: units, gyroUnits: gyroUnits) }
    }

    /// The next block of `reader` (nil at the end), its warnings logged.
    ///
    /// - Throws: `RecordingLoadError` naming the file and line.
    public static func next(_ reader: RecordingReader) throws -> Recording? {
        try mapping { try reader.next() }.map(loggingWarnings)
    }

    /// Logs `recording`'s warnings (a torn last line) and returns it.
    private static func loggingWarnings(_ recording: Recording) -> Recording {
        for warning in recording.warnings { TiltdLog.logger.warning("\(warning.escapingControls())") }
        return recording
    }

    /// Runs `body`, a `TraceError` becoming a `RecordingLoadError`.
    private static func mapping<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as TraceError { throw RecordingLoadError(message: error.description) }
    }
}

/// A recording that could not be loaded; printed by the command line as one
/// line ("tiltd: error: <file>:<line>: …") with exit status 1.
public struct RecordingLoadError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
