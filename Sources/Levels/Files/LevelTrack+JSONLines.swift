import Foundation

extension LevelTrack {
    /// The largest |t| a levels JSON Lines file may give, in seconds (about
    /// 317 years): far beyond any recording, and small enough that every
    /// span between two records is a `Duration` a real-time replay can wait
    /// (`tiltd levels` in real time, `serve` replaying a
    /// level file) and `t` is written back exactly (`ChannelLevels.appendJSONLine`).
    public static let maximumSeconds = 1e10

    /// One line of a levels JSON Lines file. Other fields are ignored, so
    /// files with fields added later still load.
    private struct Line: Decodable {
        var t: Double
        var left: Double
        var right: Double
    }

    /// Levels from a JSON Lines file, one `{"t":…,"left":…,"right":…}` per
    /// line (blank lines skipped), as `tiltd levels` writes them.
    ///
    /// - Throws: `LevelFileError.badLine` naming the first bad line (not a
    ///   record, a level outside 0…1, t not finite, beyond ±`maximumSeconds`
    ///   or going back),
    ///   `.unreadable`, or `.empty` when no line holds a record.
    public static func decodeJSONLines(path: String) throws(LevelFileError) -> LevelTrack {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path)
        }
        return try decodeJSONLines(data, path: path)
    }

    /// Parses levels JSON Lines already in memory; `path` only names the
    /// source in errors.
    public static func decodeJSONLines(_ data: Data, path: String) throws(LevelFileError) -> LevelTrack {
        let decoder = JSONDecoder()
        var records: [ChannelLevels] = []
        var lineNumber = 0
        for slice in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let line: Line
            do { line = try decoder.decode(Line.self, from: Data(slice)) } catch {
                throw .badLine(path: path, line: lineNumber, reason: reason(for: error))
            }
            for (name, value) in [("left", line.left), ("right", line.right)] where !(0...1).contains(value) {
                throw .badLine(path: path, line: lineNumber, reason: "\(name) \(value) is outside 0…1")
            }
            guard line.t.isFinite else {
                throw .badLine(path: path, line: lineNumber, reason: "t is not a finite number")
            }
            guard abs(line.t) <= maximumSeconds else {
                throw .badLine(path: path, line: lineNumber, reason: "t \(line.t) is beyond ±\(Int(maximumSeconds)) s "
                    + "(317 years): give seconds since the levels began")
            }
            if let previous = records.last, line.t < previous.seconds {
                throw .badLine(path: path, line: lineNumber,
                               reason: "t \(line.t) goes back before \(previous.seconds)")
            }
            records.append(ChannelLevels(seconds: line.t, left: line.left, right: line.right))
        }
        guard !records.isEmpty else { throw .empty(path: path) }
        return LevelTrack(records: records)
    }

    /// A short reason for a decoding failure: the missing or mistyped field,
    /// else "not a JSON object".
    private static func reason(for error: any Error) -> String {
        switch error as? DecodingError {
        case let .keyNotFound(key, _)?: return "no \"\(key.stringValue)\" field"
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?:
            guard let field = context.codingPath.last?.stringValue else { return "not a JSON object" }
            return "\"\(field)\" is not a number"
        default: return "not a JSON object"
        }
    }
}
