import Glibc
import Motion
import Platform

/// The one rule for every path tiltd writes (`Setting.out` of record, render
/// and draw, `Setting.record`, `Setting.contactSheet`, `Setting.recordDir`,
/// the `Setting.listen` socket): tiltd creates the file or the folder you name,
/// never a folder above it. Each path is checked before anything is opened
/// (a device, a recording, a server), so a typo fails at once, naming the
/// option, the path and what to do, instead of after capture has begun or
/// by creating folders nobody asked for.
public enum OutputPath {
    /// Checks that `path` can be written as a file: it is not a directory,
    /// and its folder exists and takes new files (a file is written under a
    /// temporary name beside it, or created there). A device or FIFO that
    /// exists (`/dev/null`, a player's pipe) only has to be writable.
    ///
    /// - Parameters:
    ///   - example: a file name to suggest inside `path` when it is a directory.
    ///   - folderMadeByTiltd: the folder is an output directory checked on
    ///     its own, which tiltd makes (a contact sheet among the frames).
    /// - Throws: `OutputPathError` naming `option` and `path`.
    public static func checkFile(_ path: String, option: Setting, example: String,
                                 folderMadeByTiltd: Bool = false) throws(OutputPathError) {
        guard !path.isEmpty else { throw OutputPathError("\(option) needs a file name, such as \(example)") }
        let kind = Posix.fileType(following: path)
        if kind == S_IFDIR || path.hasSuffix("/") {
            var base = Substring(path)
            while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
            throw OutputPathError("\(option) \(path) is a directory: give a file name such as \(base)/\(example)")
        }
        if let kind, kind != S_IFREG {
            guard Posix.isWritable(path) else {
                throw OutputPathError("\(option) \(path) cannot be written (\(reason(errno))); choose another \(option)")
            }
            return
        }
        if !folderMadeByTiltd { try checkFolder(of: path, option: option) }
    }

    /// Checks that `path` is a directory tiltd can create files in, or that
    /// it can be made (`makeDirectory(_:option:)`): its folder exists and
    /// takes new files.
    ///
    /// - Parameter purpose: what the directory is for ("the PNG frames").
    /// - Throws: `OutputPathError` naming `option` and `path`.
    public static func checkDirectory(_ path: String, option: Setting, purpose: String) throws(OutputPathError) {
        guard !path.isEmpty else { throw OutputPathError("\(option) needs a directory for \(purpose)") }
        guard let kind = Posix.fileType(following: path) else { return try checkFolder(of: path, option: option) }
        guard kind == S_IFDIR else {
            throw OutputPathError("\(option) \(path) is a file, not a directory: give a directory for \(purpose)")
        }
        try checkTakesFiles(path, option: option, what: "\(option) \(path): cannot create files there")
    }

    /// Creates the directory `path` (one level, mode 0755 less the umask)
    /// unless it exists; its folder must exist (`checkDirectory`).
    ///
    /// - Throws: `OutputPathError` naming `option` and `path`.
    public static func makeDirectory(_ path: String, option: Setting) throws(OutputPathError) {
        do { try Posix.makeDirectory(path) } catch {
            throw OutputPathError("cannot create the directory \(option) \(path): \(error.reason); choose another \(option)")
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
    private static func checkFolder(of path: String, option: Setting) throws(OutputPathError) {
        let named = parentPath(path)
        let folder = named.isEmpty ? "." : named
        guard let kind = Posix.fileType(following: folder) else {
            throw OutputPathError("\(option) \(path): there is no folder \(folder); create it first "
                + "(mkdir -p \(folder)) or choose another \(option)")
        }
        guard kind == S_IFDIR else {
            throw OutputPathError("\(option) \(path): \(folder) is not a directory; choose another \(option)")
        }
        try checkTakesFiles(folder, option: option, what: "\(option) \(path): cannot create files in \(folder)")
    }

    /// Checks that files can be created in the directory `folder`; `what` begins the refusal.
    private static func checkTakesFiles(_ folder: String, option: Setting, what: SettingMessage) throws(OutputPathError) {
        guard Posix.canCreateFiles(in: folder) else {
            throw OutputPathError("\(what) (\(reason(errno))); choose another \(option) or fix its permissions")
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// An output path tiltd cannot write: one line naming the option, the path
/// and what to do; the command exits 1 (a runtime error, not a usage error).
public struct OutputPathError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: SettingMessage
    public var description: String { message.description }

    public init(_ message: SettingMessage) {
        self.message = message
    }
}
