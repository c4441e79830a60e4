import Foundation

/// Names the PulseAudio server a client will try, for messages: libpulse
/// itself only says "Connection refused", not where it looked.
enum PulseServerAddress {
    /// `server` when given; else what libpulse picks: PULSE_SERVER, or the
    /// native socket in XDG_RUNTIME_DIR (a `default-server` in client.conf
    /// would take precedence over the socket; that case is rare and named).
    static func describe(_ server: String?,
                         environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let server { return server }
        if let variable = environment["PULSE_SERVER"], !variable.isEmpty {
            return "\(variable) (from PULSE_SERVER)"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return "unix:\(runtime)/pulse/native"
        }
        return "the default socket (XDG_RUNTIME_DIR and PULSE_SERVER are unset)"
    }
}
