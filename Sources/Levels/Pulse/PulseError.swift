import Motion
/// Why PulseAudio (or PipeWire's pipewire-pulse) cannot serve levels or the
/// volume; each description is one line saying which server or device and
/// what to do.
public enum PulseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No server answers at `server` (`reason` from libpulse).
    case noServer(server: String, reason: String)
    /// The server refused the record stream (usually: no such source).
    case noSource(source: String, server: String, reason: String)
    /// The server has no default sink to take the volume of.
    case noDefaultSink(server: String)
    /// A request failed (`operation` says which), for example the
    /// connection dropped while it was under way.
    case requestFailed(operation: String, server: String, reason: String)
    /// libpulse could not create or start its mainloop.
    case mainloopUnavailable

    public var description: String {
        switch self {
        case let .noServer(server, reason):
            return "no PulseAudio server at \(server) (\(reason)): start one with `pulseaudio --start` "
                + "(PipeWire desktops: `systemctl --user start pipewire-pulse`) or set PULSE_SERVER to a running one"
        case let .noSource(source, server, reason):
            return "PulseAudio at \(server) cannot record from source \(source) (\(reason)): "
                + "list sources with `pactl list short sources` and pass one with \(Setting.source)"
        case let .noDefaultSink(server):
            return "PulseAudio at \(server) has no default sink: load one (`pactl load-module module-null-sink`) "
                + "or choose one with `pactl set-default-sink`"
        case let .requestFailed(operation, server, reason):
            return "PulseAudio at \(server) failed to \(operation) (\(reason)); check the server is still running"
        case .mainloopUnavailable:
            return "libpulse could not start its mainloop thread; check the process's thread and memory limits"
        }
    }
}
