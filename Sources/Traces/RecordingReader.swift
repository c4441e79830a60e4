import Glibc
import Motion

/// Reads a trace or CSV as it arrives, a block of whole lines at a time, so
/// `tiltd replay` holds a bounded amount whatever the input: a huge file, a
/// pipe fed for hours (`tiltd record … | tiltd replay -`), or `/dev/zero`
/// (refused at its first line, which never ends).
///
/// A regular file of up to `wholeFileBytes` is read and checked in one block,
/// so a malformed line is reported before anything is replayed; anything
/// else comes in blocks of at most `blockBytes` plus one line, each parsed as
/// soon as it holds a complete line. Lines are capped at
/// `TraceFile.maximumLineBytes` and numbered as in the file.
public final class RecordingReader {
    /// Regular files up to this size are parsed whole.
    public static let wholeFileBytes = 64 << 20
    /// The most read at once from anything else.
    public static let blockBytes = 1 << 20

    /// The name messages use ("standard input" for `-`).
    public let displayName: String
    /// The trace header (nil for CSV, or before the first block).
    public private(set) var header: TraceHeader?
    /// The file's kind, known after the first block.
    public private(set) var format: Recording.Format?

    private let descriptor: Int32
    private let units: CSVUnits
    private let gyroUnits: GyroUnits
    private let readSize: Int
    /// A small regular file, read whole before parsing.
    private let wholeFile: Bool
    private var pending: [UInt8] = []
    /// Where each read(2) lands before it is appended to `pending`.
    private var scratch: [UInt8]
    private var lines: TraceFile.LineLimit
    /// Complete lines already parsed.
    private var linesParsed = 0
    /// The file's first line with its newline, put before each later block.
    private var firstLine: [UInt8]?
    private var atEnd = false

    /// Opens `path` (`-`: standard input).
    ///
    /// - Throws: `TraceError.io` naming the path.
    public convenience init(path: String, units: CSVUnits = .metresPerSecondSquared,
                            gyroUnits: GyroUnits = .radiansPerSecond) throws {
        let descriptor = path == "-" ? STDIN_FILENO : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceError.io(path: TraceFile.displayName(path), operation: "open the recording",
                                reason: TraceWriter.errnoText())
        }
        self.init(descriptor: descriptor, displayName: TraceFile.displayName(path), units: units,
                  gyroUnits: gyroUnits)
    }

    /// Reads an open descriptor, which it then owns (closes), unless it is standard input.
    package init(descriptor: Int32, displayName: String, units: CSVUnits,
         gyroUnits: GyroUnits = .radiansPerSecond) {
        self.descriptor = descriptor
        self.displayName = displayName
        self.units = units
        self.gyroUnits = gyroUnits
        lines = TraceFile.LineLimit(path: displayName)
        var status = stat()
        let regular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        wholeFile = regular && Int(status.st_size) < Self.wholeFileBytes
        readSize = wholeFile ? Int(status.st_size) + 1 : Self.blockBytes
        scratch = [UInt8](repeating: 0, count: readSize)
    }

    deinit {
        if descriptor != STDIN_FILENO { Glibc.close(descriptor) }
    }

    /// The next block's readings, gaps and warnings (a torn last line), in
    /// file order; nil at the end of the input.
    ///
    /// - Throws: `TraceError` naming the file and line (malformed line, over-long line, read error).
    public func next() throws -> Recording? {
        while !atEnd {
            let before = pending.count
            if try readBlock() == 0 {
                atEnd = true
                scratch = []
                break
            }
            try pending.withUnsafeBufferPointer { try lines.scan($0, from: before) }
            if wholeFile { continue }
            if let cut = pending.lastIndex(of: 0x0A) { return try parse(upTo: cut + 1) }
        }
        // At the end: the rest (a torn last line), or the "empty file" error.
        guard !pending.isEmpty || format == nil else { return nil }
        let rest = try parse(upTo: pending.count)
        return rest
    }

    /// Appends up to `readSize` bytes to `pending`; returns how many.
    private func readBlock() throws -> Int {
        while true {
            let result = scratch.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else {
                throw TraceError.io(path: displayName, operation: "read the recording", reason: TraceWriter.errnoText())
            }
            pending.append(contentsOf: scratch[..<result])
            return result
        }
    }

    /// Parses `pending[..<end]` (whole lines, or the rest at the end) and keeps the remainder.
    private func parse(upTo end: Int) throws -> Recording {
        let block: [UInt8]
        if end == pending.count {
            block = pending  // no copy: `pending` is emptied below
            pending = []
        } else {
            block = Array(pending[..<end])
            pending.removeFirst(end)
        }
        lines.dropFirst(end)
        let recording: Recording
        if let firstLine {
            recording = try Recording.parse(firstLine + block, path: displayName, units: units,
                                            gyroUnits: gyroUnits, continuation: true, lineOffset: linesParsed)
        } else {
            recording = try Recording.parse(block, path: displayName, units: units, gyroUnits: gyroUnits)
            if let newline = block.firstIndex(of: 0x0A) { firstLine = Array(block[...newline]) }
            header = recording.header
            format = recording.format
        }
        // Every newline scanned so far is in this block (it ends at the last one).
        linesParsed = lines.completeLines
        return recording
    }
}
