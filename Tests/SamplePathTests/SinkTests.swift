import Foundation
import Glibc
import Knob
import Motion
import Platform
import SamplePath
import Testing
import TiltdTestSupport

/// Every sink: stdout's JSON Lines and its buffering, the hub, the collector.
@Suite(.timeLimit(.minutes(2))) struct SinkTests {
    /// A pipe whose read end is non-blocking, to see what was written so far.
    final class Pipe {
        let read: Int32
        let write: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw SocketTestClient.Failure(description: "pipe failed") }
            read = fds[0]
            write = fds[1]
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
            // Room for a whole chunk and more (F_SETPIPE_SZ, 1031 on Linux):
            // the sink's write must never wait for this test to read.
            guard fcntl(write, 1031, Int32(1 << 20)) >= 1 << 20 else {
                throw SocketTestClient.Failure(description: "F_SETPIPE_SZ failed")
            }
        }

        deinit {
            close(read)
            close(write)
        }

        /// Everything written and not yet read.
        func available() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(read, &chunk, chunk.count)
                guard n > 0 else { break }
                bytes += chunk[..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// What live output's writer thread has written, once it is
        /// `expected` (or what came within 30 s).
        func read(until expected: String) -> String {
            var text = ""
            let deadline = ContinuousClock.now + .seconds(30)
            while text != expected && ContinuousClock.now < deadline {
                let more = available()
                if more.isEmpty { usleep(1_000) } else { text += more }
            }
            return text
        }
    }

    @Test func stdoutSinkFlushingEachLineWritesEachAsItComes() throws {
        let pipe = try Pipe()
        let sink = StdoutSink(flushEachLine: true, descriptor: pipe.write)
        sink.emit(TestStates.state(1))
        #expect(pipe.read(until: TestStates.line(1) + "\n") == TestStates.line(1) + "\n")
        sink.emit(TestStates.state(2))
        #expect(pipe.read(until: TestStates.line(2) + "\n") == TestStates.line(2) + "\n")
    }

    /// Live output into a pipe nobody reads: emitting never waits; lines
    /// that do not fit are dropped whole, said once, and counted when lines
    /// fit again; what arrives is whole lines in order.
    @Test func liveOutputNeverWaitsForItsReaderAndDropsWholeLines() async throws {
        let pipe = try Pipe()
        _ = fcntl(pipe.write, 1031, Int32(4096))  // F_SETPIPE_SZ: one page
        let log = LogCapture()
        let sink = StdoutSink(flushEachLine: true, descriptor: pipe.write, mailboxBytes: 4096, logger: log.logger)
        for index in 0..<2_000 { sink.emit(TestStates.state(index)) }
        let warning = "tiltd: warning: standard output is not being read: dropping states until it is"
        // The writer may take a batch or two before the pipe fills: bursts
        // of drops, each said when it starts and counted when it ends.
        #expect(log.lines.first == warning && log.lines.last == warning, "\(log.lines)")
        // Read everything that was not dropped (the pipe and the mailbox).
        let kept = 2_000 - sink.droppedLines
        var text = ""
        let deadline = ContinuousClock.now + .seconds(60)
        while text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) < kept && ContinuousClock.now < deadline {
            let more = pipe.available()
            if more.isEmpty { try await Task.sleep(for: .milliseconds(1)) } else { text += more }
        }
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n").map(String.init)
        let all = (0..<2_000).map(TestStates.line)
        var next = all.startIndex
        for line in lines {  // a subsequence of what was emitted: whole lines, in order
            guard let found = all[next...].firstIndex(of: line) else {
                Issue.record("\(line) is not a whole line after line \(next)")
                break
            }
            next = found + 1
        }
        #expect(lines.count == kept && kept > 10 && kept < 2_000)
        // Read again: the next line goes through, and the drops are counted.
        sink.emit(TestStates.state(5_000))
        #expect(pipe.read(until: TestStates.line(5_000) + "\n") == TestStates.line(5_000) + "\n")
        let counted = log.lines.compactMap { line -> Int? in
            guard let range = line.range(of: "tiltd: standard output is read again; ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(counted.reduce(0, +) == 2_000 - lines.count, "\(log.lines)")
        #expect(log.lines.filter { $0 == warning }.count == counted.count, "each burst said once: \(log.lines)")
        await sink.close(waitingAtMost: .seconds(30))
    }

    /// A stop never waits on a reader that stopped reading: `close` gives up
    /// after its limit and says the last states were not written.
    @Test func closingLiveOutputGivesUpOnAStalledReader() async throws {
        let pipe = try Pipe()
        _ = fcntl(pipe.write, 1031, Int32(4096))
        let log = LogCapture()
        let sink = StdoutSink(flushEachLine: true, descriptor: pipe.write, logger: log.logger)
        for index in 0..<200 { sink.emit(TestStates.state(index)) }  // more than the pipe takes: the writer blocks
        await sink.close(waitingAtMost: .milliseconds(50), logger: log.logger)
        #expect(log.lines.contains("tiltd: warning: standard output was not read for 0.05 seconds; the last states were not written"),
                "\(log.lines)")
        // Read, so the writer (blocked in write(2)) can finish and end
        // before the pipe closes.
        let ended = Task { await sink.close(waitingAtMost: .seconds(30)) }
        let deadline = ContinuousClock.now + .seconds(30)
        var read = ""
        while read.components(separatedBy: "\n").count <= 200 && ContinuousClock.now < deadline {
            read += pipe.available()
            try await Task.sleep(for: .milliseconds(1))
        }
        await ended.value
        #expect(read == (0..<200).map { TestStates.line($0) + "\n" }.joined())
    }

    @Test func stdoutSinkBuffersUntilFlushOrAChunk() throws {
        let pipe = try Pipe()
        let sink = StdoutSink(flushEachLine: false, descriptor: pipe.write)
        sink.emit(TestStates.state(1))
        sink.emit(TestStates.state(2))
        #expect(pipe.available().isEmpty, "nothing written before a flush")
        sink.flush()
        #expect(pipe.available() == TestStates.line(1) + "\n" + TestStates.line(2) + "\n")
        // A chunk's worth of lines goes out without a flush, in whole lines.
        var index = 3
        var written = ""
        while written.isEmpty {
            sink.emit(TestStates.state(index))
            index += 1
            written = pipe.available()
        }
        #expect(written.utf8.count >= StdoutSink.chunkBytes)
        #expect(written.hasSuffix("\n"))
        let lines = written.split(separator: "\n").map(String.init)
        #expect(lines == (3..<(3 + lines.count)).map(TestStates.line))
    }

    @Test func stdoutSinkDropsStatesUnwrittenOnlyOnDevNull() throws {
        let null = open("/dev/null", O_WRONLY)
        try #require(null >= 0)
        defer { close(null) }
        let discarding = StdoutSink(flushEachLine: true, descriptor: null)
        #expect(discarding.discards)
        discarding.emit(TestStates.state(1))
        discarding.flush()

        // Another character device (/dev/zero also swallows writes) and a pipe are written to.
        let zero = open("/dev/zero", O_WRONLY)
        try #require(zero >= 0)
        defer { close(zero) }
        #expect(!StdoutSink(flushEachLine: true, descriptor: zero).discards)
        let pipe = try Pipe()
        let sink = StdoutSink(flushEachLine: true, descriptor: pipe.write)
        #expect(!sink.discards)
        sink.emit(TestStates.state(2))
        #expect(pipe.read(until: TestStates.line(2) + "\n") == TestStates.line(2) + "\n")
    }

    /// Standard output failing is logged once and its watch ends the run with it.
    @Test func aFailedWriteIsLoggedOnceAndEndsTheRunThroughTheWatch() async throws {
        let pipe = try Pipe()
        let readOnly = open("/proc/self/fd/\(pipe.read)", O_RDONLY)
        try #require(readOnly >= 0)
        defer { close(readOnly) }
        for live in [false, true] {
            let log = LogCapture()
            let sink = StdoutSink(flushEachLine: live, descriptor: readOnly, logger: log.logger)
            sink.emit(TestStates.state(1))
            sink.emit(TestStates.state(2))
            sink.flush()
            let message = "cannot write to standard output: \(FileDescriptorWriter.describe(EBADF))"
            await #expect(throws: ReportedFailure.self) { try await sink.watch.run() }
            #expect(log.lines == ["tiltd: error: " + message], "live: \(live)")
            if !live { #expect(sink.failure?.description == message) }
        }
    }

    @Test func theHubHandsEveryStateToEverySinkInOrder() {
        let first = StateCollector(), second = StateCollector()
        let tee = StateHub([first, second])
        for index in 0..<5 { tee.emit(TestStates.state(index)) }
        tee.flush()
        let expected = (0..<5).map(TestStates.state)
        #expect(first.states == expected)
        #expect(second.states == expected)
    }

    @Test func logLinesHaveTiltdsOneFormat() {
        #expect(TiltdLogHandler.line(level: .info, message: "reading x") == "tiltd: reading x\n")
        #expect(TiltdLogHandler.line(level: .notice, message: "n") == "tiltd: n\n")
        #expect(TiltdLogHandler.line(level: .warning, message: "w") == "tiltd: warning: w\n")
        #expect(TiltdLogHandler.line(level: .error, message: "e") == "tiltd: error: e\n")
        #expect(TiltdLogHandler.line(level: .critical, message: "c") == "tiltd: error: c\n")
        #expect(TiltdLogHandler.line(level: .debug, message: "d") == "tiltd: debug: d\n")
        // Through a Logger: one write per line, below the level nothing.
        let log = LogCapture()
        var logger = log.logger
        logger.logLevel = .info
        logger.debug("hidden")
        logger.warning("shown", metadata: ["key": "not printed"])
        #expect(log.lines == ["tiltd: warning: shown"])
    }
}
