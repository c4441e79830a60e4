import Foundation
@testable import Motion
import Testing
import Traces

/// `RecordingReader` streams a recording a block at a time with the same
/// readings, gaps, warnings and line numbers as a whole-file parse
/// (regression: replay read its whole input first, so `/dev/zero` grew
/// without bound and a pipe was only replayed at its end).
@Suite(.timeLimit(.minutes(2))) struct RecordingReaderTests {
    static let yei = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/yei-quiet-handling.trace")

    /// A reader over a pipe fed `bytes` in `piece`-byte writes by another thread.
    static func piped(_ bytes: [UInt8], piece: Int) -> RecordingReader {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        let writer = ends[1]
        Thread.detachNewThread {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset..<min(bytes.count, offset + piece)].withUnsafeBytes {
                    write(writer, $0.baseAddress!, $0.count)
                }
                if n <= 0 { break }
                offset += n
            }
            close(writer)
        }
        return RecordingReader(descriptor: ends[0], displayName: "pipe", units: .metresPerSecondSquared)
    }

    static func readAll(_ reader: RecordingReader) throws -> (blocks: Int, readings: [Reading], gaps: Int, warnings: [String]) {
        var blocks = 0, readings: [Reading] = [], gaps = 0, warnings: [String] = []
        while let block = try reader.next() {
            blocks += 1
            readings += block.readings
            gaps += block.gaps.count
            warnings += block.warnings
        }
        return (blocks, readings, gaps, warnings)
    }

    @Test func aPipeGivesTheSameReadingsAsTheWholeFileInManyBlocks() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.yei))
        let whole = try Recording.parse(bytes, path: "pipe")
        let streamed = try Self.readAll(Self.piped(bytes, piece: 4093))
        #expect(streamed.blocks > 1)
        #expect(streamed.readings == whole.readings)
        #expect(streamed.warnings.isEmpty)
    }

    @Test func linesAreNumberedAsInTheFileAcrossBlocks() throws {
        var text = "tiltd-trace 1\n# name: test\n"
        for i in 0..<30_000 { text += "s \(i * 10_000_000) 0 0 9.81\n" }
        text += "g 300000000000 device vanished\ns 300010000000 0 0 9.81\nbogus line\n"
        let reader = Self.piped(Array(text.utf8), piece: 7001)
        var readings = 0, gaps = 0
        do {
            while let block = try reader.next() {
                readings += block.readings.count
                gaps += block.gaps.count
            }
            Issue.record("the bogus line should be refused")
        } catch let error as TraceError {
            // Two header lines, 30,000 samples, a gap, a sample: the bogus line is 30,005.
            #expect(error.description.hasPrefix("pipe:30005: unknown record"), "\(error)")
        }
        // Blocks before the one holding the bad line were handed out already.
        #expect(readings > 0 && readings <= 30_001)
    }

    @Test func aTornLastLineIsWarnedAboutWithItsLineNumber() throws {
        var text = "time_s,accel_x,accel_y,accel_z\n"
        for i in 0..<5000 { text += "\(Double(i) / 100),0,0,9.81\n" }
        text += "50.00,0,0"
        let streamed = try Self.readAll(Self.piped(Array(text.utf8), piece: 1000))
        #expect(streamed.readings.count == 5000)
        #expect(streamed.warnings.count == 1)
        #expect(streamed.warnings.first?.hasPrefix("pipe:5002: the last line is incomplete") == true,
                "\(streamed.warnings)")
    }

    @Test func anEndlessLineIsRefusedWithoutReadingItAll() throws {
        let reader = try RecordingReader(path: "/dev/zero")
        #expect(throws: TraceError.self) { _ = try reader.next() }
        do { _ = try RecordingReader(path: "/dev/zero").next() } catch {
            #expect("\(error)".hasPrefix("/dev/zero:1: the line is longer than 65536 bytes"))
        }
    }

    @Test func anEmptyInputIsTheUsualEmptyFileError() throws {
        let reader = Self.piped([], piece: 1)
        #expect(throws: TraceError.self) { _ = try reader.next() }
    }
}
