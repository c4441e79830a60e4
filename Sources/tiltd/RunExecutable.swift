import Glibc
import Platform

/// `tiltd run` as an executable of its own, `tiltd-run`, installed beside
/// `tiltd`: the daemon then maps none of what the other commands link
/// (Foundation and ICU, the HTTP stack, libpulse, libsndfile, libpng), which
/// is most of `tiltd run`'s resident memory (docs/performance.md).
///
/// `tiltd` execs it before parsing anything, with the same arguments: the
/// process keeps its pid, descriptors, environment, ignored signals and
/// stdout/stderr, so a unit, a shell's `$!` or a test sees one process.
/// Without it beside `tiltd` (an uninstalled copy), `run` runs in-process.
/// The raw calls (`access`, `execv`) are all in this file.
enum RunExecutable {
    /// The executable's file name, beside `tiltd`'s own.
    static let fileName = "tiltd-run"

    /// Options that ask the root command for something whatever comes first
    /// (completions and the manual plugin's dump describe all of tiltd).
    static let rootOptions: Set<String> = ["--generate-completion-script", "--experimental-dump-help"]

    /// Asked of the root when no command is named (`tiltd --help`, `tiltd --version`).
    static let rootFlags: Set<String> = ["-h", "--help", "--version"]

    /// True when `arguments` (without the program's name) select `run`: the
    /// word `run` first, or no command at all (the default one) unless the
    /// root's own flags are asked for.
    static func selectsRun(_ arguments: [String]) -> Bool {
        let asksRoot = arguments.contains { word in
            rootOptions.contains(word) || rootOptions.contains { word.hasPrefix($0 + "=") }
        }
        guard !asksRoot else { return false }
        guard let first = arguments.first else { return true }
        if first == "run" { return true }
        return first.hasPrefix("-") && !arguments.contains(where: rootFlags.contains)
    }

    /// Replaces this process with `tiltd-run arguments…` when the arguments
    /// select `run` and it sits beside this executable; returns otherwise
    /// (and when the exec fails, after saying why), and `run` runs here.
    static func replaceProcessIfRun(_ arguments: [String]) {
        guard selectsRun(arguments), let directory = ownDirectory() else { return }
        let path = directory + "/" + fileName
        guard access(path, X_OK) == 0 else { return }
        var argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        for word in argv { free(word) }
        TiltdLogHandler.writeStandardError("tiltd: warning: cannot run \(path): \(reason); running `run` in this process")
    }

    /// The directory of the running executable, or nil when it cannot be read.
    static func ownDirectory() -> String? {
        guard let path = Posix.executablePath(), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
