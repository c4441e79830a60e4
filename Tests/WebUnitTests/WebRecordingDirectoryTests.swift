import Foundation
import Glibc
import Motion
import Testing
import TiltdTestSupport
import Traces
@testable import Web

/// The ring's directory is capped, deleting only
/// the oldest of tiltd's own traces, and the files the ring writes there
/// are private to the owner and group, created new, never through a link
/// and never over another file.
@Suite(.timeLimit(.minutes(2))) struct WebRecordingDirectoryTests {
    /// One recording: a hold with `samples` readings, finished, and a new
    /// ring; returns once the trace is complete (named, offered, the
    /// directory pruned).
    static func record(_ recorder: WebRingRecorder, samples: Int = 3) async {
        recorder.press(by: 1)
        for i in 1...samples { recorder.record(WebRingRecorderTests.reading(i)) }
        recorder.release(by: 1)
        recorder.finish(by: 1)
        recorder.reset(by: 1)
        await recorder.completed()
    }

    static func write(_ path: String, bytes: Int) throws {
        try Data(repeating: 0x73, count: bytes).write(to: URL(fileURLWithPath: path))
    }

    static func ringTraces(_ directory: String) -> [String] {
        WebRingRecorderTests.files(directory).filter { WebRecordingDirectory.parse($0) != nil }
    }

    @Test func onlyTheNewestRecordingsAreKeptAndNothingElseIsTouched() async throws {
        let directory = try TestPaths.temporaryDirectory()
        // tiltd's own from an earlier run (the oldest), and what is not tiltd's.
        try Self.write(directory + "/ring-20000101-000000-1.trace", bytes: 10)
        try Self.write(directory + "/notes.txt", bytes: 10)
        try Self.write(directory + "/ring-20000101-000000-1.trace.bak", bytes: 10)
        try Self.write(directory + "/victim", bytes: 10)
        #expect(symlink(directory + "/victim", directory + "/ring-20000101-000000-2.trace") == 0)
        let foreign = directory + "/ring-20000101-000000-3.trace"
        try Self.write(foreign, bytes: 10)
        let othersOwn = geteuid() == 0 && chown(foreign, 65534, 65534) == 0
        let (recorder, _, _) = try WebRingRecorderTests.recorder(keep: 3, in: directory)
        for _ in 0..<5 { await Self.record(recorder) }
        let kept = Self.ringTraces(directory).filter { !$0.hasPrefix("ring-2000") }
        #expect(kept.count == 3, "the newest 3 of 5: \(kept)")
        #expect(Array(recorder.offered.suffix(3)) == kept, "the newest are the ones offered")
        #expect(recorder.offered.count == 3, "deleted traces are no longer offered: \(recorder.offered)")
        let files = WebRingRecorderTests.files(directory)
        #expect(!files.contains("ring-20000101-000000-1.trace"), "an own older trace went first")
        for name in ["notes.txt", "ring-20000101-000000-1.trace.bak", "victim", "ring-20000101-000000-2.trace"] {
            #expect(files.contains(name), "\(name) is not a trace of the ring: left alone")
        }
        if othersOwn { #expect(files.contains("ring-20000101-000000-3.trace"), "another user's file is left alone") }
    }

    @Test func theOldestGoUntilTheRestFitTheMebibytes() async throws {
        let directory = try TestPaths.temporaryDirectory()
        try Self.write(directory + "/ring-20000101-000000-1.trace", bytes: 600 << 10)
        try Self.write(directory + "/ring-20000101-000001-1.trace", bytes: 500 << 10)
        try Self.write(directory + "/ring-20000101-000002-1.trace", bytes: 600 << 10)
        let (recorder, _, _) = try WebRingRecorderTests.recorder(maximumMebibytes: 1, in: directory)
        await Self.record(recorder)
        let traces = Self.ringTraces(directory)
        // The new one and 600 KiB fit 1 MiB; 500 KiB more does not, so it and everything older goes.
        #expect(traces == ["ring-20000101-000002-1.trace", try #require(recorder.offered.last)], "\(traces)")
    }

    @Test func theNewestIsKeptWhateverItsSize() {
        let cap = WebRecordingDirectory(path: "/nonexistent", keep: 2, maximumBytes: 100)
        let traces = [("ring-20261127-000003-1.trace", 500), ("ring-20261127-000002-1.trace", 10),
                      ("ring-20261127-000001-1.trace", 10)].map {
            WebRecordingDirectory.Trace(name: $0.0, bytes: Int64($0.1), stamp: "", number: 0)
        }
        #expect(cap.excess(traces).map(\.name) == ["ring-20261127-000002-1.trace", "ring-20261127-000001-1.trace"])
        #expect(WebRecordingDirectory.parse("ring-20261127-094512-12.trace")! == ("20261127-094512", 12))
        for name in ["ring-2026112-094512-1.trace", "ring-20261127-094512-.trace", "ring-20261127-094512-1.trace.partial",
                     ".ring-20261127-094512-1.trace.partial", "ring-20261127-0945x2-1.trace"] {
            #expect(WebRecordingDirectory.parse(name) == nil, "\(name)")
        }
    }

    @Test func aTraceIsPrivateToOwnerAndGroup() async throws {
        let (recorder, directory, _) = try WebRingRecorderTests.recorder()
        await Self.record(recorder)
        let name = try #require(recorder.offered.last)
        var info = stat()
        #expect(lstat(directory + "/" + name, &info) == 0)
        #expect(info.st_mode & 0o007 == 0, "no access for others: \(String(info.st_mode & 0o777, radix: 8))")
        #expect(info.st_mode & 0o600 == 0o600)
    }

    @Test func aLinkLeftUnderTheNameIsNeverFollowed() async throws {
        let directory = try TestPaths.temporaryDirectory()
        // Dangling links under the partial names of this second and the next ones.
        let now = Date()
        for second in 0..<5 {
            let stamp = WebRecordingFile.stamp(now.addingTimeInterval(Double(second)))
            #expect(symlink(directory + "/created-through-a-link-\(second)", directory + "/.ring-\(stamp)-1.trace.partial") == 0)
        }
        let (recorder, _, _) = try WebRingRecorderTests.recorder(in: directory)
        await Self.record(recorder)
        let name = try #require(recorder.offered.last)
        #expect(name.hasSuffix("-2.trace"), "the next number: \(name)")
        #expect(!WebRingRecorderTests.files(directory).contains { $0.hasPrefix("created-through-a-link") })
    }

    @Test func theFinalNameNeverReplacesAFileThatAppeared() async throws {
        let (recorder, directory, _) = try WebRingRecorderTests.recorder()
        recorder.press(by: 1)
        recorder.record(WebRingRecorderTests.reading(1))
        let partial = try #require(WebRingRecorderTests.files(directory).first { $0.hasSuffix(".partial") })
        let taken = String(partial.dropFirst().dropLast(".partial".count))
        try Self.write(directory + "/" + taken, bytes: 7)
        recorder.release(by: 1)
        recorder.finish(by: 1)
        await recorder.completed()
        let name = try #require(recorder.offered.last)
        #expect(name != taken)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + taken)).count == 7, "the other file is intact")
        #expect(try Recording.load(path: directory + "/" + name).readings.count == 1)
    }
}
