import Foundation
import Glibc
import Motion
import Wording

/// The cap on the page's recording directory (`Setting.recordKeep`,
/// `Setting.recordMaxMib`): after the ring finishes a trace, the oldest
/// finished traces are deleted until at most `keep` remain and they take at
/// most `maximumBytes` together. The newest trace is always kept, however
/// large (its length is bounded by `Setting.recordLimit`).
///
/// Only tiltd's own files are touched: regular files (not symbolic links)
/// owned by this process's user and named as the ring names its traces,
/// `ring-YYYYMMDD-HHMMSS-N.trace`. Anything else in the directory, a
/// `.partial` trace still being written included, is neither counted nor
/// deleted.
struct WebRecordingDirectory: Sendable {
    let path: String
    /// The most finished traces kept.
    let keep: Int
    /// The most bytes the finished traces may take together.
    let maximumBytes: Int64

    /// Default of `Setting.recordKeep`.
    static let defaultKeep = 32
    /// Default of `Setting.recordMaxMib`.
    static let defaultMaximumMebibytes = 64

    /// One finished trace of the ring in the directory.
    struct Trace: Equatable {
        var name: String
        var bytes: Int64
        /// `YYYYMMDD-HHMMSS` and `N` of the name: traces sort oldest first by them.
        var stamp: String
        var number: Int
    }

    /// The ring's finished traces in the directory, newest first.
    func traces() -> [Trace] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let user = geteuid()
        var found: [Trace] = []
        for name in names {
            guard let (stamp, number) = Self.parse(name) else { continue }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == user else {
                continue
            }
            found.append(Trace(name: name, bytes: Int64(info.st_size), stamp: stamp, number: number))
        }
        return found.sorted { ($0.stamp, $0.number) > ($1.stamp, $1.number) }
    }

    /// The traces to delete so that what is left fits the cap: given the
    /// traces newest first, every one from the first that does not fit on.
    func excess(_ traces: [Trace]) -> [Trace] {
        var kept = 0, bytes: Int64 = 0
        var remove: [Trace] = []
        for trace in traces {
            if kept == 0 || (remove.isEmpty && kept < keep && bytes + trace.bytes <= maximumBytes) {
                kept += 1
                bytes += trace.bytes
            } else {
                remove.append(trace)
            }
        }
        return remove
    }

    /// Deletes the oldest traces past the cap.
    ///
    /// - Returns: the names deleted, and a failure to report (the first
    ///   `unlink` that failed, naming the file), if any.
    func prune() -> (removed: [String], failure: SettingMessage?) {
        var removed: [String] = [], failure: SettingMessage?
        for trace in excess(traces()) {
            let file = path + "/" + trace.name
            if unlink(file) == 0 || errno == ENOENT {
                removed.append(trace.name)
            } else if failure == nil {
                failure = "\(file): cannot delete it to keep \(.recordDir) within \(.recordKeep) \(keep) and "
                    + "\(.recordMaxMib) \(maximumBytes >> 20): \(String(cString: strerror(errno)))"
            }
        }
        return (removed, failure)
    }

    /// The stamp and number of a name the ring gives finished traces,
    /// `ring-YYYYMMDD-HHMMSS-N.trace`; nil for any other name.
    static func parse(_ name: String) -> (stamp: String, number: Int)? {
        let prefix = "ring-", suffix = ".trace"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.utf8.count <= 64 else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 8, parts[1].count == 6,
              (parts[0] + parts[1]).allSatisfy({ $0.isASCII && $0.isNumber }),
              !parts[2].isEmpty, parts[2].count <= 9, parts[2].allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(parts[2]) else { return nil }
        return ("\(parts[0])-\(parts[1])", number)
    }
}
