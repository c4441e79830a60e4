/// Why PulseAudio (or PipeWire's pipewire-pulse) cannot serve levels or the
/// volume: which server or device, and libpulse's reason (the command line
/// words it as one line saying what to do).
public enum PulseError: Error, Sendable, Equatable {
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
}
