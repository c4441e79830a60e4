import Foundation
import Glibc
import Motion

/// One trace the page records: written line by line into a hidden partial
/// file in the recording directory (`TraceWriter`: every record one whole
/// `write(2)`, so a crash leaves whole lines), renamed to its final name
/// when the recording ends, so the directory never shows a trace that is
/// still growing under its final name.
final class WebRecordingFile {
    /// The final file name, e.g. `ring-20261123-094512-1.trace`.
    let name: String
    let finalPath: String
    let partialPath: String
    private let writer: TraceWriter
    /// Sample lines written.
    private(set) var samples = 0
    /// The first and last sample timestamps, ns.
    private(set) var firstNanoseconds: Int64?
    private(set) var lastNanoseconds: Int64?

    /// Creates the partial file with `header` under a name not used in
    /// `directory` yet.
    ///
    /// - Throws: `TraceError.io` naming the file when it cannot be created.
    init(directory: String, header: TraceHeader, date: Date = Date()) throws {
        let stamp = Self.stamp(date)
        var number = 1
        var name = "ring-\(stamp)-\(number).trace"
        while FileManager.default.fileExists(atPath: directory + "/" + name)
            || FileManager.default.fileExists(atPath: directory + "/." + name + ".partial") {
            number += 1
            name = "ring-\(stamp)-\(number).trace"
        }
        self.name = name
        finalPath = directory + "/" + name
        partialPath = directory + "/." + name + ".partial"
        writer = try TraceWriter(path: partialPath, header: header)
    }

    /// Appends one reading (its gyro only when the header has one).
    func append(_ reading: Reading) throws {
        try writer.append(timestampNanoseconds: reading.timestampNanoseconds, raw: nil,
                          acceleration: reading.acceleration,
                          rotationRate: writer.version >= 2 ? reading.rotationRate : nil)
        samples += 1
        if firstNanoseconds == nil { firstNanoseconds = reading.timestampNanoseconds }
        lastNanoseconds = reading.timestampNanoseconds
    }

    /// Appends a `g` mark: no samples between the previous one and `timestampNanoseconds`.
    func appendGap(timestampNanoseconds: Int64, reason: String) throws {
        try writer.appendGap(timestampNanoseconds: timestampNanoseconds, reason: reason)
    }

    /// Closes the file and gives it its final name; a file without a single
    /// sample is removed instead (there is nothing to keep).
    ///
    /// - Returns: true when the trace was kept.
    /// - Throws: `TraceError.io` when closing or renaming fails (the partial
    ///   file then stays, with every line written).
    func finish() throws -> Bool {
        try writer.close()
        if samples == 0 {
            unlink(partialPath)
            return false
        }
        guard rename(partialPath, finalPath) == 0 else {
            throw TraceError.io(path: partialPath, operation: "rename the recording to \(finalPath)",
                                reason: String(cString: strerror(errno)))
        }
        return true
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

    /// True for a name this server could have given a finished trace
    /// (`ring-…trace`, letters, digits and `-` only): what the download
    /// route accepts before it looks the name up.
    static func isTraceName(_ name: Substring) -> Bool {
        name.hasPrefix("ring-") && name.hasSuffix(".trace") && name.count <= 64
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }
}
