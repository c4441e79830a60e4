import Motion

/// Where a replay's readings come from: all in memory, or block by block
/// from a reader (`tiltd replay FILE` and `replay -` stream the file, so
/// memory stays bounded whatever its length).
///
/// `@unchecked Sendable`: a stream's reader is not thread-safe, but a source
/// is handed to the one task that plays it and used only there.
public enum ReplaySource: @unchecked Sendable {
    /// The whole recording, already loaded (can be played more than once).
    case readings([Reading])
    /// The next block of readings, nil at the end; read once, as needed.
    case blocks(() throws -> [Reading]?)

    /// A fresh pass: a function giving the next block, nil at the end.
    public func makeBlocks() -> () throws -> [Reading]? {
        switch self {
        case .readings(let readings):
            var given = false
            return {
                defer { given = true }
                return given ? nil : readings
            }
        case .blocks(let next):
            return next
        }
    }
}
