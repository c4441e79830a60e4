import Glibc

/// Parses the bytes of a trace or a plain CSV in place (see `Recording`).
///
/// Lines are found with `memchr` and fields are parsed by `TraceDecimal`
/// straight from the buffer: no per-line String, no Foundation.
struct TraceParser {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let path: String
    private var position = 0
    private var lineNumber = 0
    /// True for a later block of a streamed file (`RecordingReader`): its
    /// first line repeats the file's first line, and no header follows.
    private let continuation: Bool

    /// One line: bytes `start..<end` without the line break; `complete`
    /// is false for a last line with no newline.
    private struct Line {
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

    mutating func parse(units: CSVUnits) throws -> Recording {
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
            return try parseCSV(units: units)
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
                if field(&probe, line.end) != nil {
                    guard let r = vector(&i, line.end) else {
                        throw malformed(line, "the raw values after the acceleration must be three numbers")
                    }
                    if raw.count < readings.count - 1 {
                        raw.append(contentsOf: repeatElement(SIMD3(repeating: .nan), count: readings.count - 1 - raw.count))
                    }
                    raw.append(r)
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
        if !raw.isEmpty, raw.count < readings.count {
            raw.append(contentsOf: repeatElement(SIMD3(repeating: .nan), count: readings.count - raw.count))
        }
        return Recording(format: .trace, header: header, readings: readings, raw: raw,
                         gaps: gaps, warnings: warnings)
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
        case TraceFormat.Key.scale, TraceFormat.Key.offset:
            let numbers = value.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == value.split(separator: " ").count, numbers.count == 1 || numbers.count == 3,
                  numbers.allSatisfy(\.isFinite) else {
                throw malformed(line, "\(key) needs one or three numbers (x y z), got \"\(value)\"")
            }
            let vector = numbers.count == 1 ? SIMD3(repeating: numbers[0]) : SIMD3(numbers[0], numbers[1], numbers[2])
            if key == TraceFormat.Key.scale { header.scale = vector } else { header.offset = vector }
        case TraceFormat.Key.mountMatrix:
            do {
                header.mountMatrix = try MountMatrix(parsing: value)
            } catch let error as MountMatrixError {
                throw malformed(line, error.description)
            }
        case TraceFormat.Key.samplingFrequency:
            guard let hertz = Double(value), hertz.isFinite, hertz >= 0 else {
                throw malformed(line, "\(key) needs a frequency in Hz, got \"\(value)\"")
            }
            header.samplingFrequencyHertz = hertz
        default:
            header.extra[key] = value
        }
    }

    // MARK: CSV

    private mutating func parseCSV(units: CSVUnits) throws -> Recording {
        let factor = units.metresPerSecondSquared
        var readings: [Reading] = []
        readings.reserveCapacity(count / 32)
        var warnings: [String] = []
        while let line = nextLine() {
            if line.isEmpty || base[line.start] == UInt8(ascii: "#") { continue }
            var i = line.start
            let t = csvField(&i, line.end).flatMap { TraceDecimal.nanoseconds(seconds: base, $0.0, $0.1) }
            let x = csvField(&i, line.end).flatMap { TraceDecimal.double(base, $0.0, $0.1) }
            let y = csvField(&i, line.end).flatMap { TraceDecimal.double(base, $0.0, $0.1) }
            let z = csvField(&i, line.end).flatMap { TraceDecimal.double(base, $0.0, $0.1) }
            guard let t, let x, let y, let z else {
                if !line.complete {
                    warnings.append(tornWarning())
                    break
                }
                throw malformed(line, "expected four numbers time_s,accel_x,accel_y,accel_z")
            }
            readings.append(Reading(timestampNanoseconds: t, acceleration: SIMD3(x, y, z) * factor))
        }
        return Recording(format: .csv, header: nil, readings: readings, warnings: warnings)
    }

    /// The next comma-separated field, blanks trimmed; nil past the end.
    @inline(__always)
    private func csvField(_ i: inout Int, _ end: Int) -> (Int, Int)? {
        guard i <= end else { return nil }
        var start = i
        var stop = i
        while stop < end, base[stop] != UInt8(ascii: ",") { stop += 1 }
        i = stop + 1
        var last = stop
        while start < last, isBlank(base[start]) { start += 1 }
        while last > start, isBlank(base[last - 1]) { last -= 1 }
        return (start, last)
    }

    // MARK: Lines and fields

    private mutating func nextLine() -> Line? {
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
    private func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The next blank-separated field; nil at the end of the line.
    @inline(__always)
    private func field(_ i: inout Int, _ end: Int) -> (Int, Int)? {
        while i < end, isBlank(base[i]) { i += 1 }
        guard i < end else { return nil }
        let start = i
        while i < end, !isBlank(base[i]) { i += 1 }
        return (start, i)
    }

    @inline(__always)
    private func vector(_ i: inout Int, _ end: Int) -> SIMD3<Double>? {
        guard let x = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let y = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let z = field(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }) else { return nil }
        return SIMD3(x, y, z)
    }

    private func text(_ line: Line) -> String {
        String(decoding: UnsafeBufferPointer(start: base + line.start, count: line.end - line.start), as: UTF8.self)
    }

    private func malformed(_ line: Line, _ problem: String) -> TraceError {
        let shown = text(Line(start: line.start, end: min(line.end, line.start + 80), complete: true))
        return .malformed(path: path, line: lineNumber, problem: "\(problem); the line is \"\(shown)\"")
    }

    private func tornWarning() -> String {
        "\(path):\(lineNumber): the last line is incomplete (the capture was probably interrupted) and was skipped"
    }
}
