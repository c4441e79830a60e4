import Foundation
import Testing
import TiltdTestSupport

/// Every umockdev buffer script under Tests/Fixtures, decoded the way
/// umockdev's script runner decodes it (SPEC §6; umockdev.vala's `decode`:
/// the blanks after the delay skipped, `^` followed by a byte is that byte
/// − 64, except that "^`" is `^` itself). A fixture written with another
/// escaping (0x20 as "^`", say) plays different bytes from the ones it was
/// made from, and the test it backs tests garbage.
@Suite(.timeLimit(.minutes(15))) struct FixtureScriptTests {
    /// The reads of a script: umockdev's decoding of each `r DELAY DATA` line.
    static func reads(of path: String) throws -> [[UInt8]] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).enumerated()
            .map { index, line in try decode(Array(line), line: index + 1, of: path) }
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func decode(_ line: [UInt8], line number: Int = 1, of path: String = "line") throws -> [UInt8] {
        guard line.count >= 2, line[0] == UInt8(ascii: "r"), line[1] == UInt8(ascii: " "),
              let delayEnd = line[2...].firstIndex(of: UInt8(ascii: " ")),
              Int(String(decoding: line[2..<delayEnd], as: UTF8.self)) != nil else {
            throw Malformed(description: "\(path):\(number): not an `r DELAY DATA` line")
        }
        var index = delayEnd + 1
        while index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
        var data: [UInt8] = []
        while index < line.count {
            if line[index] == UInt8(ascii: "^") {
                guard index + 1 < line.count else { throw Malformed(description: "\(path):\(number): a line ends in ^") }
                let next = line[index + 1]
                data.append(next == UInt8(ascii: "`") ? UInt8(ascii: "^") : next &- 64)
                index += 2
            } else {
                data.append(line[index])
                index += 1
            }
        }
        return data
    }

    static func fixture(_ name: String) -> String { TiltdProcess.fixtures.appendingPathComponent(name).path }

    static func int64(_ bytes: [UInt8], at offset: Int) -> Int64 {
        (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func umockdevsEscapesDecodeAsItsRunnerDoes() throws {
        #expect(try Self.decode(Array("r 0 ^@^A^_^`a b".utf8)) == [0, 1, 0x1F, 0x5E, 0x61, 0x20, 0x62])
        // The blanks after the delay are skipped: a read cannot begin with 0x20.
        #expect(try Self.decode(Array("r 10   x".utf8)) == [0x78])
    }

    /// The IIO buffer scripts: (name, scan bytes, offset of the le:s64 timestamp).
    static let iioScripts: [(String, Int, Int)] = [
        ("buffered.script", 24, 16), ("steady.script", 24, 16), ("bench-200hz.script", 24, 16),
        ("silent.script", 24, 16), ("combined-imu.script", 24, 16),
        ("hid-accel.script", 24, 16), ("hid-gyro.script", 24, 16),
        ("sibling-accel.script", 16, 8), ("sibling-gyro.script", 16, 8),
        ("sibling-gyro-dies.script", 16, 8), ("sibling-accel-still.script", 16, 8),
        ("sibling-gyro-stalls.script", 16, 8),
    ]

    @Test(arguments: iioScripts.map(\.0))
    func iioScriptsPlayWholeScansWhoseTimestampsIncrease(_ name: String) throws {
        let (_, scanBytes, timestampOffset) = try #require(Self.iioScripts.first { $0.0 == name })
        let bytes = try Self.reads(of: Self.fixture(name)).flatMap { $0 }
        #expect(!bytes.isEmpty && bytes.count % scanBytes == 0, "\(name): \(bytes.count) bytes, not whole \(scanBytes)-byte scans")
        let timestamps = stride(from: 0, to: bytes.count - scanBytes + 1, by: scanBytes)
            .map { Self.int64(bytes, at: $0 + timestampOffset) }
        let backwards = zip(timestamps, timestamps.dropFirst()).filter { $0 >= $1 }.count
        #expect(backwards == 0, "\(name): \(backwards) of \(timestamps.count) scan timestamps do not increase")
    }

    /// Every IIO script in the folder is in the table above.
    @Test func everyScriptIsChecked() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TiltdProcess.fixtures.path)
            .filter { $0.hasSuffix(".script") }
        let checked = Set(Self.iioScripts.map(\.0) + ["ds4-split.script"])
        #expect(Set(names) == checked)
    }

    /// ds4-split.script plays exactly ds4-motion.events' input_events, each
    /// SYN_REPORT in two reads.
    @Test func theSplitPadScriptPlaysTheEventsItWasMadeFrom() throws {
        let played = try Self.reads(of: Self.fixture("ds4-split.script")).flatMap { $0 }
        let events = try String(contentsOfFile: Self.fixture("ds4-motion.events"), encoding: .utf8)
        var expected: [UInt8] = []
        for line in events.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.split(separator: " ")
            let time = fields[1].split(separator: ".")
            let (seconds, micros) = (Int64(time[0])!, Int64(time[1])!)
            let (type, code) = (UInt16(fields[2], radix: 16)!, UInt16(fields[3], radix: 16)!)
            let value = Int32(fields[4])!
            for (word, size) in [(UInt64(bitPattern: seconds), 8), (UInt64(bitPattern: micros), 8),
                                 (UInt64(type), 2), (UInt64(code), 2), (UInt64(UInt32(bitPattern: value)), 4)] {
                expected += (0..<size).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
            }
        }
        #expect(played.count == expected.count)
        #expect(played == expected, "ds4-split.script does not play ds4-motion.events")
        let times = stride(from: 0, to: played.count, by: 24).map {
            Self.int64(played, at: $0) * 1_000_000 + Self.int64(played, at: $0 + 8)
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
