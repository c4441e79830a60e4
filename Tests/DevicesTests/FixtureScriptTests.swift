@testable import Devices
import Foundation
import Testing

/// The umockdev buffer scripts under Tests/Fixtures deliver exactly the scans
/// `make-scripts.py` meant: each line is decoded as umockdev decodes it and
/// every 24-byte scan is compared with the generator's formula.
///
/// The space 0x20 is the byte to watch: written as "^`", umockdev would
/// read it back as '^' (0x5E), corrupting 23 scans of steady.script and
/// 102 of bench-200hz.script.
@Suite(.timeLimit(.minutes(2))) struct FixtureScriptTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The generator's first device timestamp, in nanoseconds.
    static let firstTimestampNanoseconds: Int64 = 1_000_000_000_000

    /// The scan layout of `buffered.umockdev`: three le:s16/32 axes, an le:s64/64 timestamp.
    static let layout: ScanLayout = {
        let axis = ScanElementType(bigEndian: false, signed: true, bits: 16, storageBits: 32, shift: 0)
        let time = ScanElementType(bigEndian: false, signed: true, bits: 64, storageBits: 64, shift: 0)
        return ScanLayout(axes: [.init(index: 0, type: axis), .init(index: 1, type: axis), .init(index: 2, type: axis)],
                          timestamp: .init(index: 3, type: time))
    }()

    /// Decodes one script line's data as umockdev does: "^" then c is the
    /// byte c − 64, except "^`", which is "^" itself; every other byte as is.
    /// umockdev skips the blanks between the delay and the data.
    static func decode(line: ArraySlice<UInt8>) throws -> (delayMilliseconds: Int, bytes: [UInt8]) {
        var rest = line
        guard rest.first == UInt8(ascii: "r") else { throw ScriptLineError("a line that is not a read") }
        rest = rest.dropFirst().drop { $0 == 0x20 }
        let digits = rest.prefix { (0x30...0x39).contains($0) }
        guard let delay = Int(String(decoding: digits, as: UTF8.self)) else { throw ScriptLineError("no delay") }
        rest = rest.dropFirst(digits.count).drop { $0 == 0x20 }
        var bytes: [UInt8] = []
        var iterator = rest.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "^") else { bytes.append(byte); continue }
            guard let next = iterator.next() else { throw ScriptLineError("a line ending in a lone ^") }
            bytes.append(next == UInt8(ascii: "`") ? UInt8(ascii: "^") : next &- 64)
        }
        return (delay, bytes)
    }

    /// Every scan of `name`, in order.
    static func scans(_ name: String) throws -> [(raw: SIMD3<Int64>, timestamp: Int64?)] {
        let data = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent(name)))
        var scans: [(raw: SIMD3<Int64>, timestamp: Int64?)] = []
        for line in data.split(separator: 0x0A) {
            let (_, bytes) = try decode(line: line)
            #expect(bytes.count == layout.scanBytes, "\(name): a read of \(bytes.count) bytes")
            bytes.withUnsafeBytes { raw in
                for offset in stride(from: 0, to: raw.count - layout.scanBytes + 1, by: layout.scanBytes) {
                    scans.append(layout.decode(raw, at: offset))
                }
            }
        }
        return scans
    }

    /// make-scripts.py's `tilting`: x = round(64·sin(2πi/40)) (Python rounds
    /// halves to even), y = −256, z = 20, timestamps `period` ms apart.
    static func expectTilting(_ name: String, count: Int, periodMilliseconds: Int64) throws {
        let scans = try scans(name)
        #expect(scans.count == count)
        var wrong = 0
        for (i, scan) in scans.enumerated() {
            let x = Int64((64 * sin(2 * Double.pi * Double(i) / 40)).rounded(.toNearestOrEven))
            let expected = SIMD3<Int64>(x, -256, 20)
            let time = firstTimestampNanoseconds + Int64(i) * periodMilliseconds * 1_000_000
            if scan.raw != expected || scan.timestamp != time {
                wrong += 1
                if wrong <= 3 { Issue.record("\(name) scan \(i): \(scan) instead of \(expected) at \(time) ns") }
            }
        }
        #expect(wrong == 0, "\(name): \(wrong) corrupted scans")
    }

    @Test func bufferedScriptDecodesToTheGeneratorsScans() throws {
        try Self.expectTilting("buffered.script", count: 20, periodMilliseconds: 10)
    }

    @Test func steadyScriptDecodesToTheGeneratorsScans() throws {
        try Self.expectTilting("steady.script", count: 800, periodMilliseconds: 10)
    }

    @Test func benchmarkScriptDecodesToTheGeneratorsScans() throws {
        try Self.expectTilting("bench-200hz.script", count: 4000, periodMilliseconds: 5)
    }

    @Test func silentScriptDeliversItsOneScanAfterTwoSeconds() throws {
        let data = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("silent.script")))
        let lines = data.split(separator: 0x0A)
        #expect(lines.count == 1)
        let (delay, bytes) = try Self.decode(line: lines[0])
        #expect(delay == 2000)
        let scans = try Self.scans("silent.script")
        #expect(scans.count == 1 && bytes.count == 24)
        #expect(scans.first?.raw == SIMD3(100, 100, 100))
        #expect(scans.first?.timestamp == Self.firstTimestampNanoseconds)
    }

    @Test func noReadBeginsWithASpaceWhichUmockdevWouldSkip() throws {
        for name in ["buffered.script", "steady.script", "bench-200hz.script", "silent.script"] {
            let data = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            for (number, line) in data.split(separator: 0x0A).enumerated() {
                // "r <delay> " then the data: the byte after the second blank.
                let afterDelay = line.drop { $0 != 0x20 }.dropFirst().drop { $0 != 0x20 }.dropFirst()
                #expect(afterDelay.first != 0x20, "\(name):\(number + 1) begins its data with 0x20")
            }
        }
    }
}

/// A script line the decoder does not understand.
struct ScriptLineError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
