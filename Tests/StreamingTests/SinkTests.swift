import Foundation
import Glibc
import Knob
import Motion
import Streaming
import Testing
import TiltdTestSupport

/// Every sink: stdout's JSON Lines and its buffering, the tee, the collector.
@Suite struct SinkTests {
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
    }

    @Test func stdoutSinkFlushingEachLineWritesAtOnce() throws {
        let pipe = try Pipe()
        let sink = StdoutSink(flushEachLine: true, descriptor: pipe.write)
        sink.emit(TestStates.state(1))
        #expect(pipe.available() == TestStates.line(1) + "\n")
        sink.emit(TestStates.state(2))
        #expect(pipe.available() == TestStates.line(2) + "\n")
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
        #expect(pipe.available() == TestStates.line(2) + "\n")
    }

    /// Standard output failing ended the process with exit() on the capture
    /// thread; now it is logged once and its watch ends the run with it.
    @Test func aFailedWriteIsLoggedOnceAndEndsTheRunThroughTheWatch() async throws {
        let pipe = try Pipe()
        let readOnly = open("/proc/self/fd/\(pipe.read)", O_RDONLY)
        try #require(readOnly >= 0)
        defer { close(readOnly) }
        let log = LogCapture()
        let sink = StdoutSink(flushEachLine: true, descriptor: readOnly, logger: log.logger)
        sink.emit(TestStates.state(1))
        sink.emit(TestStates.state(2))
        sink.flush()
        let message = "cannot write to standard output: \(FileDescriptorWriter.describe(EBADF))"
        #expect(sink.failure?.description == message)
        #expect(log.lines == ["tiltd: error: " + message])
        await #expect(throws: ReportedFailure.self) { try await sink.watch.run() }
    }

    @Test func teeHandsEveryStateToEverySinkInOrder() {
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
