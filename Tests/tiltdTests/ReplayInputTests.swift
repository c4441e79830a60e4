import Foundation
import Testing
import TiltdTestSupport

/// `tiltd replay`'s input: bounded reading, standard input,
/// Int64 timestamps, escaped control bytes, negative option values.
@Suite(.timeLimit(.minutes(15))) struct ReplayInputTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    static func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-replay-\(getpid())-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func devZeroIsRefusedAtItsFirstLineInsteadOfFillingMemory() throws {
        let r = try TiltdProcess.run(["replay", "/dev/zero"], timeout: 30)
        #expect(!r.timedOut)
        #expect(r.status == 1)
        #expect(r.stderr.contains("/dev/zero:1: the line is longer than 65536 bytes"), "\(r.stderr)")
    }

    @Test func anOverlongLineIsNamedInARegularFileAndOnStandardInput() throws {
        var bytes = Array("tiltd-trace 1\ns 0 0 0 9.81\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "7"), count: 70_000) + [0x0A]
        let url = try Self.file("long-line.trace", bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try TiltdProcess.run(["replay", url.path])
        #expect(file.status == 1 && file.stderr.contains("\(url.path):3: the line is longer"), "\(file.stderr)")
        let stdin = try TiltdProcess.run(["replay", "-"], stdin: Data(bytes))
        #expect(stdin.status == 1 && stdin.stderr.contains("standard input:3: the line is longer"), "\(stdin.stderr)")
    }

    @Test func dashReadsStandardInput() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.sweep))
        let fromFile = try TiltdProcess.run(["replay", Self.sweep])
        let fromStdin = try TiltdProcess.run(["replay", "-"], stdin: data)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(!fromStdin.stdout.isEmpty && fromStdin.stdout == fromFile.stdout)
    }

    @Test func timestampsAtBothEndsOfInt64ReplayWithoutFalseWarnings() throws {
        let url = try Self.file("ends.trace", Array(
            "tiltd-trace 1\ns -9223372036854775808 0 0 9.81\ns 9223372036854775807 3 0 9\n".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try TiltdProcess.run(["replay", url.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 2)
        #expect(r.stdout.hasPrefix("{\"t\":-9223372036.854776"), "\(r.stdout)")
        #expect(!r.stderr.contains("backwards") && !r.stderr.contains("malformed"), "\(r.stderr)")
        let reversed = try Self.file("reversed.trace", Array(
            "tiltd-trace 1\ns 9223372036854775807 0 0 9.81\ns -9223372036854775808 3 0 9\n".utf8))
        defer { try? FileManager.default.removeItem(at: reversed) }
        let back = try TiltdProcess.run(["replay", reversed.path])
        #expect(back.status == 0 && back.stderr.contains("went backwards"), "\(back.stderr)")
    }

    @Test func controlBytesFromTheFileAreEscapedInMessages() throws {
        let url = try Self.file("escape.trace", Array("tiltd-trace 1\ns 0 0 0 9.81\nz \u{1B}[2J\u{07}boom\n".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try TiltdProcess.run(["replay", url.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\\x1B[2J\\x07boom"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test(arguments: [
        (["--cutoff", "-1"], "--cutoff must be a positive frequency in Hz, got -1.0"),
        (["--threshold", "-1"], "--threshold must be a non-negative angle in radians, got -1.0"),
        (["--knob-radius", "-3"], "--knob-radius must be a positive number of pixels, got -3.0"),
    ])
    func negativeValuesReachValidation(_ options: [String], _ message: String) throws {
        let r = try TiltdProcess.run(["replay", Self.sweep] + options)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message) && !r.stderr.contains("Missing value"), "\(r.stderr)")
    }
}
