import Glibc
import Platform

/// The one rule for every path tiltd writes (a recording, a render's frames
/// or stream and its contact sheet, a still, the page's recordings, the
/// state socket): tiltd creates the file or the folder you name, never a
/// folder above it. Each path is checked before anything is opened (a
/// device, a recording, a server), so a typo fails at once, saying which
/// path (`Role`) and what is wrong, instead of after capture has begun or
/// by creating folders nobody asked for.
public enum OutputPath {
    /// What a path is for, named in its refusals.
    public enum Role: Sendable, Equatable {
        /// A command's output: a recording, a render's frames or stream, a still.
        case output
        /// The trace a run records beside its output.
        case recording
        /// A render's contact sheet.
        case contactSheet
        /// The directory of the page's recordings.
        case recordingDirectory
        /// The state socket.
        case socket
    }

    /// Checks that `path` can be written as a file: it is not a directory,
    /// and its folder exists and takes new files (a file is written under a
    /// temporary name beside it, or created there). A device or FIFO that
    /// exists (`/dev/null`, a player's pipe) only has to be writable.
    ///
    /// - Parameters:
    ///   - example: a file name to suggest inside `path` when it is a directory.
    ///   - folderMadeByTiltd: the folder is an output directory checked on
    ///     its own, which tiltd makes (a contact sheet among the frames).
    /// - Throws: `OutputPathError` naming `role` and `path`.
    public static func checkFile(_ path: String, role: Role, example: String,
                                 folderMadeByTiltd: Bool = false) throws(OutputPathError) {
        guard !path.isEmpty else { throw .noFileName(role: role, example: example) }
        let kind = Posix.fileType(following: path)
        if kind == S_IFDIR || path.hasSuffix("/") {
            var base = Substring(path)
            while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
            throw .isADirectory(role: role, path: path, suggestion: "\(base)/\(example)")
        }
        if let kind, kind != S_IFREG {
            guard Posix.isWritable(path) else { throw .cannotWrite(role: role, path: path, reason: reason(errno)) }
            return
        }
        if !folderMadeByTiltd { try checkFolder(of: path, role: role) }
    }

    /// Checks that `path` is a directory tiltd can create files in, or that
    /// it can be made (`makeDirectory(_:role:)`): its folder exists and
    /// takes new files.
    ///
    /// - Parameter purpose: what the directory is for ("the PNG frames").
    /// - Throws: `OutputPathError` naming `role` and `path`.
    public static func checkDirectory(_ path: String, role: Role, purpose: String) throws(OutputPathError) {
        guard !path.isEmpty else { throw .noDirectoryName(role: role, purpose: purpose) }
        guard let kind = Posix.fileType(following: path) else { return try checkFolder(of: path, role: role) }
        guard kind == S_IFDIR else { throw .notADirectory(role: role, path: path, purpose: purpose) }
        guard Posix.canCreateFiles(in: path) else {
            throw .cannotCreateFiles(role: role, path: path, folder: nil, reason: reason(errno))
        }
    }

    /// Creates the directory `path` (one level, mode 0755 less the umask)
    /// unless it exists; its folder must exist (`checkDirectory`).
    ///
    /// - Throws: `OutputPathError` naming `role` and `path`.
    public static func makeDirectory(_ path: String, role: Role) throws(OutputPathError) {
        do { try Posix.makeDirectory(path) } catch {
            throw .cannotMakeDirectory(role: role, path: path, reason: error.reason)
        }
    }

    /// The folder that holds `path`'s last component, as `dirname` gives
    /// it but "" for a bare name: trailing slashes ignored, "/" for a name
    /// at the root.
    public static func parentPath(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var parent = trimmed[..<slash]
        while parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Checks that the folder `path` goes in exists, is a directory and takes new files.
    private static func checkFolder(of path: String, role: Role) throws(OutputPathError) {
        let named = parentPath(path)
        let folder = named.isEmpty ? "." : named
        guard let kind = Posix.fileType(following: folder) else { throw .noFolder(role: role, path: path, folder: folder) }
        guard kind == S_IFDIR else { throw .folderNotADirectory(role: role, path: path, folder: folder) }
        guard Posix.canCreateFiles(in: folder) else {
            throw .cannotCreateFiles(role: role, path: path, folder: folder, reason: reason(errno))
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// An output path tiltd cannot write: which path, for what, and what is
/// wrong; the command exits 1 (a runtime error, not a usage error).
public enum OutputPathError: Error, Sendable, Equatable {
    /// An empty file name (`example` is one to give).
    case noFileName(role: OutputPath.Role, example: String)
    /// A file name that is a directory (`suggestion`: a file in it).
    case isADirectory(role: OutputPath.Role, path: String, suggestion: String)
    /// A device or FIFO that cannot be written.
    case cannotWrite(role: OutputPath.Role, path: String, reason: String)
    /// An empty directory name (`purpose`: what the directory is for).
    case noDirectoryName(role: OutputPath.Role, purpose: String)
    /// A directory name that is a file.
    case notADirectory(role: OutputPath.Role, path: String, purpose: String)
    /// Files cannot be created in the directory `path` (`folder` nil) or in
    /// the folder `path` goes in.
    case cannotCreateFiles(role: OutputPath.Role, path: String, folder: String?, reason: String)
    /// The directory could not be made.
    case cannotMakeDirectory(role: OutputPath.Role, path: String, reason: String)
    /// The folder `path` goes in does not exist.
    case noFolder(role: OutputPath.Role, path: String, folder: String)
    /// The folder `path` goes in is not a directory.
    case folderNotADirectory(role: OutputPath.Role, path: String, folder: String)
}
