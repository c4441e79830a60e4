/// Something a library tells the person running tiltd, typed: how serious
/// it is and what happened (settings named by type). It is written in one
/// place, the log handler (`TiltdLog.log`), as `tiltd: [warning: |error: ]…`.
public struct Diagnostic: Sendable, Equatable {
    public enum Severity: Sendable, Equatable {
        case notice, warning, error
    }

    public var severity: Severity
    public var message: SettingMessage

    public static func notice(_ message: SettingMessage) -> Diagnostic { Diagnostic(severity: .notice, message: message) }
    public static func warning(_ message: SettingMessage) -> Diagnostic { Diagnostic(severity: .warning, message: message) }
    public static func error(_ message: SettingMessage) -> Diagnostic { Diagnostic(severity: .error, message: message) }
}
