import Logging

/// The logger tiltd's components use unless given another: label `tiltd`,
/// formatted by `TiltdLogHandler` once `main` has bootstrapped it.
public enum TiltdLog {
    /// A logger made when first used (so after the bootstrap in `main`).
    public static var logger: Logger { Logger(label: "tiltd") }

    /// Passes on a line that a library without swift-log (TiltBus) already
    /// worded as `tiltd: [warning: |error: ]message`, at the level its prefix
    /// names, so it goes through the one handler (and `TILTD_LOG`) too.
    @Sendable public static func relay(_ line: String) {
        var message = Substring(line)
        if message.hasPrefix("tiltd: ") { message = message.dropFirst("tiltd: ".count) }
        if message.hasPrefix("error: ") {
            logger.error("\(message.dropFirst("error: ".count))")
        } else if message.hasPrefix("warning: ") {
            logger.warning("\(message.dropFirst("warning: ".count))")
        } else {
            logger.notice("\(message)")
        }
    }
}
