import Foundation
import Glibc
import Logging
import Motion
import SamplePath
import Traces

/// One trace the page records: written into a hidden partial file in the
/// recording directory by the recorder `Setting.record` uses (`TraceRecorder`:
/// each line formatted on the producer's thread and written whole by the
/// recorder's own thread, so a slow disk never holds up the samples or the
/// viewers, and a crash leaves whole lines), renamed to its final name
/// when the recording ends, so the directory never shows a trace that is
/// still growing under its final name.
///
/// The directory may be shared with other users, so the file is created
/// new (`O_EXCL`: never an existing file, `O_NOFOLLOW`: never through a
/// symbolic link someone left under the name) with mode 0640 (owner and
/// group read, nobody else), and the final name never replaces a file that
/// appeared there meanwhile (`link(2)`, which fails on an existing name).
final class WebRecordingFile: @unchecked Sendable {
    // Safe to share: used by one thread at a time: appended to under the
    // ring's lock, then handed over whole to the task that completes it.

    /// The final file name, e.g. `ring-20261123-094512-1.trace`.
    var name: String { "ring-\(stamp)-\(number).trace" }
    var finalPath: String { directory + "/" + name }
    let partialPath: String
    private let directory: String
    private let stamp: String
    private var number: Int
    private let recorder: TraceRecorder
    /// Sample lines handed to the recorder.
    private(set) var samples = 0
    /// The first and last sample timestamps, ns.
    private(set) var firstNanoseconds: Int64?
    private(set) var lastNanoseconds: Int64?

    /// The permission bits of the traces the page writes.
    static let mode: mode_t = 0o640
    /// Names tried before giving up when every one is taken.
    static let maximumAttempts = 1000

    /// Creates the partial file with `header` under a name not used in
    /// `directory` yet.
    ///
    /// - Throws: `TraceError.io` naming the file when it cannot be created.
    init(directory: String, header: TraceHeader, date: Date = Date(), logger: Logger) throws {
        self.directory = directory
        stamp = Self.stamp(date)
        var number = 1
        var descriptor: Int32 = -1
        var partial = ""
        while true {
            let name = "ring-\(stamp)-\(number).trace"
            partial = directory + "/." + name + ".partial"
            if !Self.exists(directory + "/" + name) {
                descriptor = Glibc.open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, Self.mode)
                if descriptor >= 0 { break }
                guard errno == EEXIST || errno == ELOOP else {
                    throw TraceError.io(path: partial, operation: "create the recording",
                                        reason: String(cString: strerror(errno)))
                }
            }
            number += 1
            guard number <= Self.maximumAttempts else {
                throw TraceError.io(path: partial, operation: "create the recording",
                                    reason: "\(Self.maximumAttempts) names for this second are taken")
            }
        }
        self.number = number
        partialPath = partial
        recorder = try TraceRecorder(descriptor: descriptor, path: partialPath, header: header, logger: logger)
    }

    /// True when anything is at `path`, a dangling symbolic link included.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Appends one reading (its gyro only when the header has one); never
    /// waits on the disk.
    ///
    /// - Throws: why the recorder stopped writing (a full disk), once it has.
    func append(_ reading: Reading) throws {
        if let failure = recorder.failure { throw WebRecordingError(description: failure) }
        try recorder.append(timestampNanoseconds: reading.timestampNanoseconds, raw: nil,
                            acceleration: reading.acceleration,
                            rotationRate: recorder.version >= 2 ? reading.rotationRate : nil)
        samples += 1
        if firstNanoseconds == nil { firstNanoseconds = reading.timestampNanoseconds }
        lastNanoseconds = reading.timestampNanoseconds
    }

    /// Appends a `g` mark: no samples between the previous one and `timestampNanoseconds`.
    func appendGap(timestampNanoseconds: Int64, reason: String) {
        recorder.appendGap(timestampNanoseconds: timestampNanoseconds, reason: reason)
    }

    /// Samples that reached the recorder and were not left out for a disk
    /// too far behind.
    var samplesKept: Int { samples - recorder.samplesLeftOut }

    /// What the end of a recording came to.
    struct Finished {
        /// The trace has its final name (false: nothing was recorded, and
        /// the partial file is gone).
        var kept: Bool
        /// Why the trace is not whole (a write failed, the disk was behind),
        /// or nil when it is.
        var problem: String?
    }

    /// Waits (at most `limit`, blocking the calling thread) for the recorder
    /// to write what it holds and closes the file, then gives it its final
    /// name; a file without a single sample is removed instead (there is
    /// nothing to keep). Whatever was written is kept, also when the trace
    /// is not whole.
    ///
    /// - Throws: `TraceError.io` when naming fails (the partial file then
    ///   stays, with every line written).
    func finish(waitingAtMost limit: Duration = .seconds(30)) throws -> Finished {
        let problem = recorder.closeBlocking(waitingAtMost: limit)
        if samples == 0 {
            unlink(partialPath)
            return Finished(kept: false, problem: problem)
        }
        // The final name, never over a file that appeared there meanwhile:
        // link(2) fails on an existing name, and the next number is tried.
        // A file system without hard links (FAT, some FUSE) gets a rename
        // once nothing is under the name.
        while link(partialPath, finalPath) != 0 {
            if errno == EPERM || errno == EOPNOTSUPP, !Self.exists(finalPath), rename(partialPath, finalPath) == 0 {
                return Finished(kept: true, problem: problem)
            }
            guard errno == EEXIST, number < Self.maximumAttempts else {
                throw TraceError.io(path: partialPath, operation: "give the recording its name \(finalPath)",
                                    reason: String(cString: strerror(errno)))
            }
            number += 1
        }
        unlink(partialPath)
        return Finished(kept: true, problem: problem)
    }

    /// `YYYYMMDD-HHMMSS` in UTC.
    static func stamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }
}

/// The recorder stopped writing a recording (the text says why and names the file).
struct WebRecordingError: Error, CustomStringConvertible {
    var description: String
}
