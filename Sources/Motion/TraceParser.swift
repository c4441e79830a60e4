import Glibc

/// Parses the bytes of a trace or a plain CSV in place (see `Recording`).
///
/// Lines are found with `memchr` and fields are parsed by `TraceDecimal`
/// straight from the buffer: no per-line String, no Foundation.
struct TraceParser {
    let base: UnsafePointer<UInt8>
    let count: Int
    let path: String
    private var position = 0
    private var lineNumber = 0
    /// True for a later block of a streamed file (`RecordingReader`): its
    /// first line repeats the file's first line, and no header follows.
    private let continuation: Bool

    /// One line: bytes `start..<end` without the line break; `complete`
    /// is false for a last line with no newline.
    struct Line {
        var start: Int
        var end: Int
        var complete: Bool
        var isEmpty: Bool { start == end }
    }

    /// - Parameters:
    ///   - lineOffset: lines of the file before `buffer`'s second line when
    ///     `continuation` (so messages name the file's own line numbers).
    init(buffer: UnsafeBufferPointer<UInt8>, path: String, continuation: Bool = false, lineOffset: Int = 0) {
        self.continuation = continuation
        lineNumber = continuation ? lineOffset - 1 : 0
        // An empty buffer may have no base address; count 0 keeps it unread.
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = buffer.count
        self.path = path
    }

    mutating func parse(units: CSVUnits, gyroUnits: GyroUnits = .radiansPerSecond) throws -> Recording {
        guard var first = nextLine() else {
            throw TraceError.malformed(path: path, line: 1, problem: "the file is empty; expected a tiltd trace "
                                       + "or a CSV with header \"time_s,accel_x,accel_y,accel_z\"")
        }
        // A UTF-8 byte order mark, as some spreadsheet programs write.
        if first.end - first.start >= 3, base[first.start] == 0xEF, base[first.start + 1] == 0xBB,
           base[first.start + 2] == 0xBF {
            first.start += 3
        }
        let firstText = text(first)
        if firstText.hasPrefix(TraceFormat.magic) {
            return try parseTrace(firstText: firstText)
        }
        let columns = firstText.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingASCIIWhitespace().lowercased() }
        if columns.count >= 4, Array(columns[0..<4]) == ["time_s", "accel_x", "accel_y", "accel_z"] {
            return try parseCSV(units: units, gyroUnits: gyroUnits,
                                hasGyro: columns.count >= 7
                                    && Array(columns[4..<7]) == ["gyro_x", "gyro_y", "gyro_z"])
        }
        throw TraceError.unknownFormat(path: path, firstLine: String(firstText.prefix(80)))
    }

    // MARK: Trace

    private mutating func parseTrace(firstText: String) throws -> Recording {
        let versionText = firstText.dropFirst(TraceFormat.magic.count).trimmingASCIIWhitespace()
        guard firstText.dropFirst(TraceFormat.magic.count).first == " ",
              let version = Int(versionText), version >= 1 else {
            throw TraceError.malformed(path: path, line: 1, problem: "expected \"\(TraceFormat.magic) <version>\" "
                                       + "with a whole version number, got \"\(firstText.prefix(80))\"")
        }
        guard version <= TraceFormat.currentVersion else {
            throw TraceError.newerVersion(path: path, version: version)
        }
        var header = TraceHeader(version: version)
        var readings: [Reading] = []
        readings.reserveCapacity(count / 40)
        var raw: [SIMD3<Double>] = []
        var rawRotation: [SIMD3<Double>] = []
        var gaps: [TraceGap] = []
        var warnings: [String] = []
        var inHeader = !continuation
        while let line = nextLine() {
            if line.isEmpty { continue }
            guard line.complete else {
                warnings.append(tornWarning())
                break
            }
            switch base[line.start] {
            case UInt8(ascii: "#"):
                if inHeader { try parseHeaderLine(line, into: &header) }
            case UInt8(ascii: "s") where line.end > line.start + 1 && isBlank(base[line.start + 1]):
                inHeader = false
                var i = line.start + 2
                guard let t = field(&i, line.end).flatMap({ TraceDecimal.int64(base, $0.0, $0.1) }),
                      let a = vector(&i, line.end) else {
                    throw malformed(line, "expected \"s <timestamp ns> <ax> <ay> <az> [<raw x> <raw y> <raw z>]\"")
                }
                readings.append(Reading(timestampNanoseconds: t, acceleration: a))
                var probe = i
                if let next = field(&probe, line.end), !(version >= 2 && isGyroMarker(next)) {
                    guard let r = vector(&i, line.end) else {
                        throw malformed(line, "the raw values after the acceleration must be three numbers")
                    }
                    TraceParser.append(r, to: &raw, at: readings.count - 1)
                }
                if version >= 2 {
                    probe = i
                    if let marker = field(&probe, line.end), isGyroMarker(marker) {
                        i = probe
                        guard let w = vector(&i, line.end) else {
                            throw malformed(line, "expected \"w <gx> <gy> <gz> [<raw gx> <raw gy> <raw gz>]\" "
                                            + "(rad/s) after the acceleration")
                        }
                        readings[readings.count - 1].rotationRate = w
                        probe = i
                        if field(&probe, line.end) != nil {
                            guard let r = vector(&i, line.end) else {
                                throw malformed(line, "the raw gyro values after \"w gx gy gz\" must be three numbers")
                            }
                            TraceParser.append(r, to: &rawRotation, at: readings.count - 1)
                        }
                    }
                }
            case UInt8(ascii: "g") where line.end > line.start + 1 && isBlank(base[line.start + 1]):
                inHeader = false
                var i = line.start + 2
                guard let t = field(&i, line.end).flatMap({ TraceDecimal.int64(base, $0.0, $0.1) }) else {
                    throw malformed(line, "expected \"g <timestamp ns> [reason]\"")
                }
                let reason = text(Line(start: i, end: line.end, complete: true)).trimmingASCIIWhitespace()
                gaps.append(TraceGap(timestampNanoseconds: t, reason: reason, readingIndex: readings.count))
            default:
                throw malformed(line, "unknown record; trace lines start with \"s \" (sample), \"g \" (gap) or \"#\"")
            }
        }
        TraceParser.pad(&raw, to: readings.count)
        TraceParser.pad(&rawRotation, to: readings.count)
        return Recording(format: .trace, header: header, readings: readings, raw: raw,
                         gaps: gaps, warnings: warnings, rawRotation: rawRotation)
    }

    /// `# key: value`; anything else starting with '#' is a comment.
    private func parseHeaderLine(_ line: Line, into header: inout TraceHeader) throws {
        let content = text(Line(start: line.start + 1, end: line.end, complete: true))
        guard let colon = content.firstIndex(of: ":") else { return }
        let key = content[..<colon].trimmingASCIIWhitespace()
        guard TraceHeader.isValidKey(key) else { return }
        let value = content[content.index(after: colon)...].trimmingASCIIWhitespace()
        switch key {
        case TraceFormat.Key.name: header.name = value
        case TraceFormat.Key.label: header.label = value
        case TraceFormat.Key.uri: header.uri = value
        case TraceFormat.Key.mountMatrixSource: header.mountMatrixSource = value
        case TraceFormat.Key.tiltdVersion: header.tiltdVersion = value
        case TraceFormat.Key.scale: header.scale = try axes(line, key, value)
        case TraceFormat.Key.offset: header.offset = try axes(line, key, value)
        case TraceFormat.Key.mountMatrix: header.mountMatrix = try matrix(line, value)
        case TraceFormat.Key.samplingFrequency: header.samplingFrequencyHertz = try hertz(line, key, value)
        default:
            if header.version >= 2, TraceGyroHeader.Key.all.contains(key) {
                var gyro = header.gyro ?? TraceGyroHeader()
                try parseGyroKey(line, key, value, into: &gyro)
                header.gyro = gyro
            } else {
                header.extra[key] = value
            }
        }
    }

    // MARK: Header values

    private func parseGyroKey(_ line: Line, _ key: String, _ value: String,
                              into gyro: inout TraceGyroHeader) throws {
        switch key {
        case TraceGyroHeader.Key.name: gyro.name = value
        case TraceGyroHeader.Key.pairing: gyro.pairing = value
        case TraceGyroHeader.Key.scale: gyro.scale = try axes(line, key, value)
        case TraceGyroHeader.Key.offset: gyro.offset = try axes(line, key, value)
        case TraceGyroHeader.Key.mountMatrix: gyro.mountMatrix = try matrix(line, value)
        case TraceGyroHeader.Key.mountMatrixSource: gyro.mountMatrixSource = value
        default: gyro.samplingFrequencyHertz = try hertz(line, key, value)
        }
    }

    /// One number for all axes, or three (x y z).
    private func axes(_ line: Line, _ key: String, _ value: String) throws -> SIMD3<Double> {
        let numbers = value.split(separator: " ").compactMap { Double($0) }
        guard numbers.count == value.split(separator: " ").count, numbers.count == 1 || numbers.count == 3,
              numbers.allSatisfy(\.isFinite) else {
            throw malformed(line, "\(key) needs one or three numbers (x y z), got \"\(value)\"")
        }
        return numbers.count == 1 ? SIMD3(repeating: numbers[0]) : SIMD3(numbers[0], numbers[1], numbers[2])
    }

    private func matrix(_ line: Line, _ value: String) throws -> MountMatrix {
        do {
            return try MountMatrix(parsing: value)
        } catch let error as MountMatrixError {
            throw malformed(line, error.description)
        }
    }

    private func hertz(_ line: Line, _ key: String, _ value: String) throws -> Double {
        guard let hertz = Double(value), hertz.isFinite, hertz >= 0 else {
            throw malformed(line, "\(key) needs a frequency in Hz, got \"\(value)\"")
        }
        return hertz
    }

    /// Stores `value` as element `index`, NaN-filling the elements before it.
    static func append(_ value: SIMD3<Double>, to values: inout [SIMD3<Double>], at index: Int) {
        if values.count < index {
            values.append(contentsOf: repeatElement(SIMD3(repeating: .nan), count: index - values.count))
        }
        values.append(value)
    }

    /// NaN-fills a per-reading column up to `count` elements; an empty
    /// column (no line had the values) stays empty.
    static func pad(_ values: inout [SIMD3<Double>], to count: Int) {
        if !values.isEmpty, values.count < count {
            values.append(contentsOf: repeatElement(SIMD3(repeating: .nan), count: count - values.count))
        }
    }

    /// Whether the field `range` is the gyro group's marker "w".
    @inline(__always)
    func isGyroMarker(_ range: (Int, Int)) -> Bool {
        range.1 == range.0 + 1 && base[range.0] == UInt8(ascii: "w")
    }

    // MARK: Lines and fields

    mutating func nextLine() -> Line? {
        guard position < count else { return nil }
        lineNumber += 1
        let start = position
        var end: Int
        let complete: Bool
        if let found = memchr(base + start, 0x0A, count - start) {
            end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            position = end + 1
            complete = true
        } else {
            end = count
            position = count
            complete = false
        }
        if end > start, base[end - 1] == 0x0D { end -= 1 }
        return Line(start: start, end: end, complete: complete)
    }

    @inline(__always)
    func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The next blank-separated field; nil at the end of the line.
    @inline(__always)
    func field(_ i: inout Int, _ end: Int) -> (Int, Int)? {
        while i < end, isBlank(base[i]) { i += 1 }
        guard i < end else { return nil }
        let start = i
        while i < end, !isBlank(base[i]) { i += 1 }
        return (start, i)
    }

    @inline(__always)
    func vector(_ i: inout Int, _ end: Int) -> SIMD3<Double>? {
        guard let x = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let y = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let z = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }) else { return nil }
        return SIMD3(x, y, z)
    }

    func text(_ line: Line) -> String {
        String(decoding: UnsafeBufferPointer(start: base + line.start, count: line.end - line.start), as: UTF8.self)
    }

    func malformed(_ line: Line, _ problem: String) -> TraceError {
        let shown = text(Line(start: line.start, end: min(line.end, line.start + 80), complete: true))
        return .malformed(path: path, line: lineNumber, problem: "\(problem); the line is \"\(shown)\"")
    }

    func tornWarning() -> String {
        "\(path):\(lineNumber): the last line is incomplete (the capture was probably interrupted) and was skipped"
    }
}
