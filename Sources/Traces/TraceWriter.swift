import Glibc
import Platform
import Motion

/// Writes a trace file record by record, crash-safe.
///
/// Every record is formatted into one line and handed to the kernel with a
/// single `write(2)` on a file opened with `O_APPEND` before `append`
/// returns: there is no user-space buffer to lose, so if tiltd dies the file
/// ends with whole lines (at worst one torn line, which replay skips with a
/// warning). It does not `fsync`; after a power cut the last records may be
/// missing.
public final class TraceWriter {
    /// The file being written.
    public let path: String
    /// The format version written: 2 when the header has a gyro, else the header's.
    public let version: Int
    private var descriptor: Int32
    private var line: [UInt8] = []

    /// Creates (or truncates) `path` and writes the magic line and `header`.
    ///
    /// - Throws: `TraceError.io` if the file cannot be created or written,
    ///   `TraceError.invalidHeaderKey` for a bad `extra` key.
    public convenience init(path: String, header: TraceHeader) throws {
        try Self.checkKeys(header, path: path)
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceError.io(path: path, operation: "create the trace", reason: TraceWriter.errnoText())
        }
        try self.init(descriptor: descriptor, path: path, header: header)
    }

    /// Writes the magic line and `header` to `descriptor`, a file the caller
    /// opened for writing (with `O_APPEND`) at `path`, and owns it from now
    /// on: it is closed by `close()`, or when the writer goes (also when
    /// this throws).
    ///
    /// - Throws: `TraceError.io` if the header cannot be written,
    ///   `TraceError.invalidHeaderKey` for a bad `extra` key.
    public init(descriptor: Int32, path: String, header: TraceHeader) throws {
        self.path = path
        self.descriptor = descriptor
        version = Self.version(of: header)
        try Self.checkKeys(header, path: path)
        line.reserveCapacity(160)
        line.append(contentsOf: Self.headerText(header).utf8)
        try flushLine()
    }

    /// The format version a trace with `header` is written in: 2 when the
    /// header has a gyro, else the header's.
    public static func version(of header: TraceHeader) -> Int {
        header.gyro == nil ? header.version : max(header.version, 2)
    }

    /// The magic line and `header`'s lines, each ending in a newline.
    ///
    /// - Throws: `TraceError.invalidHeaderKey` for a bad `extra` key.
    public static func headerText(_ header: TraceHeader, path: String) throws -> String {
        try checkKeys(header, path: path)
        return headerText(header)
    }

    private static func headerText(_ header: TraceHeader) -> String {
        var text = "\(TraceFormat.magic) \(version(of: header))\n"
        for headerLine in header.lines { text += headerLine + "\n" }
        return text
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Appends one sample line:
    /// `s <ns> <ax> <ay> <az> [<rx> <ry> <rz>] [w <gx> <gy> <gz> [<raw gx> <raw gy> <raw gz>]]`.
    ///
    /// - Parameters:
    ///   - timestampNanoseconds: the sample's timestamp.
    ///   - raw: the raw x, y, z values before offset, scale and mount matrix, if known.
    ///   - acceleration: m/s² in the device frame.
    ///   - rotationRate: the gyro in rad/s in the same frame, if captured (format 2 only).
    ///   - rawRotation: the gyro's raw values, if known (written only with `rotationRate`).
    /// - Throws: `TraceError.io` if the write fails, `.closed` after `close()`,
    ///   `.gyroInVersion1` for a rate in a trace opened without gyro metadata.
    public func append(timestampNanoseconds: Int64, raw: SIMD3<Double>?, acceleration: SIMD3<Double>,
                       rotationRate: SIMD3<Double>? = nil, rawRotation: SIMD3<Double>? = nil) throws {
        if rotationRate != nil && version < 2 {
            throw TraceError.gyroInVersion1(path: path)
        }
        Self.appendSample(timestampNanoseconds: timestampNanoseconds, raw: raw, acceleration: acceleration,
                          rotationRate: rotationRate, rawRotation: rawRotation, to: &line)
        try flushLine()
    }

    /// Appends one sample line (`append`'s format), newline included.
    public static func appendSample(timestampNanoseconds: Int64, raw: SIMD3<Double>?, acceleration: SIMD3<Double>,
                                    rotationRate: SIMD3<Double>?, rawRotation: SIMD3<Double>?,
                                    to line: inout [UInt8]) {
        line.append(contentsOf: "s \(timestampNanoseconds) ".utf8)
        line.append(contentsOf: TraceHeader.text(acceleration).utf8)
        if let raw {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: TraceHeader.text(raw).utf8)
        }
        if let rotationRate {
            line.append(contentsOf: " \(TraceFormat.gyroMarker) ".utf8)
            line.append(contentsOf: TraceHeader.text(rotationRate).utf8)
            if let rawRotation {
                line.append(UInt8(ascii: " "))
                line.append(contentsOf: TraceHeader.text(rawRotation).utf8)
            }
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// Appends a gap marker: `g <ns> <reason>`.
    ///
    /// - Throws: `TraceError.io` if the write fails, `.closed` after `close()`.
    public func appendGap(timestampNanoseconds: Int64, reason: String) throws {
        line.append(contentsOf: Self.gapLine(timestampNanoseconds: timestampNanoseconds, reason: reason).utf8)
        try flushLine()
    }

    /// A gap marker's line (`appendGap`'s format), newline included.
    public static func gapLine(timestampNanoseconds: Int64, reason: String) -> String {
        "g \(timestampNanoseconds) \(TraceHeader.oneLine(reason))\n"
    }

    /// Closes the file. Later appends throw; closing twice is harmless.
    ///
    /// - Throws: `TraceError.io` if `close(2)` reports a failure.
    public func close() throws {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 {
            throw TraceError.io(path: path, operation: "close the trace", reason: TraceWriter.errnoText())
        }
    }

    private func flushLine() throws {
        defer { line.removeAll(keepingCapacity: true) }
        guard descriptor >= 0 else { throw TraceError.closed(path: path) }
        let failure = line.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        if failure != 0 {
            throw TraceError.io(path: path, operation: "write to the trace",
                                reason: FileDescriptorWriter.describe(failure))
        }
    }

    private static func checkKeys(_ header: TraceHeader, path: String) throws {
        for key in header.extra.keys where !TraceHeader.isValidKey(key) || TraceFormat.Key.all.contains(key) {
            throw TraceError.invalidHeaderKey(path: path, key: key)
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
