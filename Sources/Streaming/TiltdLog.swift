import Logging

/// The logger tiltd's components use unless given another: label `tiltd`,
/// formatted by `TiltdLogHandler` once `main` has bootstrapped it.
public enum TiltdLog {
    /// A logger made when first used (so after the bootstrap in `main`).
    public static var logger: Logger { Logger(label: "tiltd") }
}
