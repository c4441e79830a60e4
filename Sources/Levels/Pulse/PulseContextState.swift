/// A context's or stream's state, as the owners need it.
enum PulseContextState: Sendable {
    case connecting, ready, failed, terminated
}
