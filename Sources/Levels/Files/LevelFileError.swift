import Glibc

/// Why a level file (WAV or levels JSON Lines) cannot be used; each
/// description is one line naming the file (and line) and what to do.
public enum LevelFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read (`reason` from the C library).
    case unreadable(path: String, reason: String)
    /// libsndfile does not know the file's format.
    case notAudio(path: String, reason: String)
    /// The audio has no frames, or no lines with levels.
    case empty(path: String)
    /// A JSON Lines line that is not a levels record.
    case badLine(path: String, line: Int, reason: String)
    /// An audio file cannot be written (`reason` from the C library or the system).
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read level file \(path): \(reason); check the path and its permissions"
        case let .notAudio(path, reason):
            return "\(path) is not audio libsndfile can decode (\(reason)); give a WAV file, "
                + "or levels JSON Lines named *.jsonl"
        case let .empty(path):
            return "\(path) holds no levels (no audio frames or no records); give a file with some"
        case let .unwritable(path, reason):
            return "cannot write audio file \(path): \(reason); choose a writable path"
        case let .badLine(path, line, reason):
            return "\(path):\(line): \(reason); each line must be "
                + #"{"t":SECONDS,"left":0…1,"right":0…1} with t never decreasing"#
        }
    }
}

extension LevelFileError {
    /// `path` cannot be read, with the system's reason (`strerror`) found by
    /// opening and reading it: the messages name the file in tiltd's words,
    /// never libsndfile's ("System error : …") or Foundation's.
    static func unreadable(path: String) -> LevelFileError {
        .unreadable(path: path, reason: systemReason(reading: path) ?? "it cannot be read whole")
    }

    /// Why opening `path` or reading its first byte fails (`strerror`), or
    /// nil when both work.
    static func systemReason(reading path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) < 0 ? String(cString: strerror(errno)) : nil
    }
}
