@testable import Motion
import Testing

/// Timestamps anywhere in Int64 (regression: differences wrapped, so a jump
/// from Int64.min to Int64.max read as "went backwards", and
/// -9223372036854775808 was called malformed); and control characters in
/// messages that echo a file.
@Suite(.timeLimit(.minutes(2))) struct TimestampExtremesTests {
    @Test func differencesSaturateInsteadOfWrapping() {
        #expect(Nanoseconds.difference(.max, .min) == .max)
        #expect(Nanoseconds.difference(.min, .max) == .min)
        #expect(Nanoseconds.difference(.max, -1) == .max)
        #expect(Nanoseconds.difference(5, 7) == -2)
        #expect(Nanoseconds.difference(.min, 0) == .min)
    }

    @Test func theFilterSeesAJumpAcrossTheWholeClockAsAGapNotAsGoingBackwards() {
        var filter = LowPassFilter(cutoffHertz: 5)
        filter.update(SIMD3(0, 0, 9.81), timestampNanoseconds: .min)
        filter.update(SIMD3(1, 0, 9.81), timestampNanoseconds: .max)
        #expect(filter.lastEvent == .reset)
        filter.update(SIMD3(0, 1, 9.81), timestampNanoseconds: .min)
        #expect(filter.lastEvent == .backwards)
        #expect(filter.intervalSeconds(to: .max) == 0)
    }

    @Test func theTraceParserReadsBothEndsOfInt64() throws {
        let text = "tiltd-trace 1\ns -9223372036854775808 0 0 9.81\ns 9223372036854775807 1 0 9.8\n"
        let recording = try Recording.parse(Array(text.utf8), path: "ends.trace")
        #expect(recording.readings.map(\.timestampNanoseconds) == [.min, .max])
        #expect(throws: TraceError.self) {
            try Recording.parse(Array("tiltd-trace 1\ns 9223372036854775808 0 0 9.81\n".utf8), path: "over.trace")
        }
        #expect(throws: TraceError.self) {
            try Recording.parse(Array("tiltd-trace 1\ns -9223372036854775809 0 0 9.81\n".utf8), path: "under.trace")
        }
    }

    @Test func thePipelineReportsAGapNotABackwardsTimestampAtTheEnds() {
        var pipeline = TiltPipeline()
        _ = pipeline.process(Reading(timestampNanoseconds: .min, acceleration: SIMD3(0, 0, 9.81)))
        _ = pipeline.process(Reading(timestampNanoseconds: .max, acceleration: SIMD3(0, 1, 9.8)))
        let diagnostics = pipeline.takeDiagnostics()
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.description.hasPrefix("gap of 9223372036.854776 s") == true,
                "\(diagnostics)")
    }

    @Test func messagesEscapeControlCharactersFromTheFile() throws {
        #expect("a\u{1B}[31mb\u{07}\tc\u{7F}\u{85}é".escapingControls() == "a\\x1B[31mb\\x07\\tc\\x7F\\u{85}é")
        #expect("plain".escapingControls() == "plain")
        let text = "tiltd-trace 1\ns 0 0 0 9.81\nx \u{1B}]0;pwned\u{07}\n"
        do {
            _ = try Recording.parse(Array(text.utf8), path: "bell\u{07}.trace")
            Issue.record("the line should be refused")
        } catch let error as TraceError {
            let message = error.description
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(message)")
            #expect(message.contains("\\x1B]0;pwned\\x07") && message.hasPrefix("bell\\x07.trace:3:"), "\(message)")
        }
    }
}
