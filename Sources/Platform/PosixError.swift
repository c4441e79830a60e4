import Glibc

/// A system call that failed: which one and its `errno`.
///
/// Returned by `Posix`, Platform's one file of the raw POSIX calls the
/// socket, the sample path and the render outputs make; the types above it
/// turn it into an error a user can act on
/// (`UnixSocketError`, `RenderError`).
public struct PosixError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call's name, as in its man page (`bind`, `flock`, …).
    public var call: String
    /// The `errno` it left.
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `strerror` of the code ("Permission denied").
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call) failed: \(reason)" }
}
