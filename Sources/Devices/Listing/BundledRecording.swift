import Platform

/// The recordings tiltd ships (recordings/README.md), where the running
/// executable can find them: installed by `make install` or the Debian
/// package in `PREFIX/share/tiltd/recordings` beside `PREFIX/bin`, else in a
/// source tree's `recordings/`.
public enum BundledRecording {
    /// The labelled synthetic sweep the no-device hint suggests replaying.
    public static let sweep = "synthetic-tilt-sweep.trace"

    /// Where the recordings are installed, relative to the executable's prefix.
    public static let installedFolder = "share/tiltd/recordings"

    /// The path to name for the recording `file`, as seen from the running
    /// executable (`path(of:executable:)`).
    public static func path(of file: String) -> String {
        path(of: file, executable: Posix.executablePath())
    }

    /// The path to name for the recording `file`:
    /// `PREFIX/share/tiltd/recordings/FILE` when `executable` is
    /// `PREFIX/bin/NAME` and that file is readable there, else
    /// `recordings/FILE` (a source tree's, from its root).
    public static func path(of file: String, executable: String?) -> String {
        if let executable, let prefix = prefix(ofExecutable: executable) {
            let installed = prefix + "/" + installedFolder + "/" + file
            if Posix.isReadableFile(installed) { return installed }
        }
        return "recordings/" + file
    }

    /// `/usr` for `/usr/bin/tiltd`: the directory above the executable's own,
    /// or nil when the path has no directory.
    static func prefix(ofExecutable path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let directory = path[..<slash]
        guard let above = directory.lastIndex(of: "/") else { return nil }
        return String(directory[..<above])
    }
}
