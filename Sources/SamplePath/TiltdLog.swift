import Logging
import Motion
import Wording

/// The logger tiltd's components use unless given another: label `tiltd`,
/// formatted by `TiltdLogHandler` once `main` has bootstrapped it.
public enum TiltdLog {
    /// A logger made when first used (so after the bootstrap in `main`).
    public static var logger: Logger { Logger(label: "tiltd") }

    /// Writes `diagnostic` at the level its severity names, through the
    /// one handler (and `TILTD_LOG`) unless a test gives another `logger`.
    public static func log(_ diagnostic: Diagnostic, to logger: Logger = logger) {
        switch diagnostic.severity {
        case .notice: logger.notice("\(diagnostic.message)")
        case .warning: logger.warning("\(diagnostic.message)")
        case .error: logger.error("\(diagnostic.message)")
        }
    }
}
