import Glibc
import Logging

/// The one format of tiltd's diagnostics on standard error:
/// `tiltd: message`, `tiltd: warning: message`, `tiltd: error: message`.
///
/// Standard output carries only states (JSON Lines), so every notice goes
/// here, one line per `write(2)`: whole even when threads log at once, and
/// unbuffered, so a line is out before a crash or `exit`. Metadata, the
/// logger's label and the time are left out on purpose: a person or a unit's
/// journal reads these lines, and the journal stamps them itself.
public struct TiltdLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level
    private let write: @Sendable ([UInt8]) -> Void

    /// - Parameters:
    ///   - logLevel: the lowest level written (`info` by default; `TILTD_LOG=debug` lowers it).
    ///   - write: where a finished line goes (standard error by default).
    public init(logLevel: Logger.Level = TiltdLogHandler.levelFromEnvironment(),
                write: (@Sendable ([UInt8]) -> Void)? = nil) {
        self.logLevel = logLevel
        self.write = write ?? { Posix.writeStandardError($0) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        write(Array(Self.line(level: event.level, message: event.message.description).utf8))
    }

    /// The line written for a message at `level`, newline included.
    public static func line(level: Logger.Level, message: String) -> String {
        switch level {
        case .trace, .debug: return "tiltd: debug: \(message)\n"
        case .info, .notice: return "tiltd: \(message)\n"
        case .warning: return "tiltd: warning: \(message)\n"
        case .error, .critical: return "tiltd: error: \(message)\n"
        }
    }

    /// `TILTD_LOG` (`debug`, `info`, `warning`, …) or `info`.
    public static func levelFromEnvironment() -> Logger.Level {
        guard let value = getenv("TILTD_LOG") else { return .info }
        return Logger.Level(rawValue: String(cString: value)) ?? .info
    }

    /// Writes `text` and a newline to standard error as it is, in one
    /// `write(2)`: ArgumentParser-style usage text, which has its own format.
    public static func writeStandardError(_ text: String) {
        Posix.writeStandardError(Array((text + "\n").utf8))
    }

    /// Makes every `Logger` write tiltd's format. Call once, first thing in `main`.
    public static func bootstrap() {
        LoggingSystem.bootstrap { _ in TiltdLogHandler() }
    }
}
