import Foundation
import Glibc
import Logging
import Motion
import Platform
import SamplePath
import Testing
import TiltdTestSupport
import Traces

/// `Setting.record`'s recorder writes off the capture thread: a disk that is
/// behind never holds up the producer, and the trace stays whole.
@Suite(.timeLimit(.minutes(2))) struct TraceRecorderTests {
    static let header = TraceHeader(name: "test", samplingFrequencyHertz: 200, tiltdVersion: "0.1.0")

    static func sample(_ index: Int) -> (Int64, SIMD3<Double>) {
        (1_000_000_000 + Int64(index) * 5_000_000, SIMD3(0.01 * Double(index % 100), -9.8, 0.25))
    }

    /// A FIFO in a temporary folder, with its reading end open and not yet
    /// read: a disk that is behind until the test drains it.
    static func stalledDisk() throws -> (path: String, reader: Int32) {
        let path = try TestPaths.temporaryDirectory() + "/slow.trace"
        #expect(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        return (path, reader)
    }

    /// Reads `reader` to the end on a thread of its own (never on the
    /// cooperative pool), then closes it; it gives up after 60 s without a
    /// byte, so `text` always comes.
    final class Drain: @unchecked Sendable {
        private let finished: Latch

        init(_ reader: Int32) {
            _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
            let box = Box()
            finished = DetachedThread.start(name: "test.drain") {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                    let polled = poll(&ready, 1, 60_000)
                    if polled < 0 && errno == EINTR { continue }
                    if polled <= 0 { break }
                    let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                    if count > 0 { box.append(chunk[0..<count]) } else if count < 0 && errno == EINTR { continue } else { break }
                }
                close(reader)
            }
            self.box = box
        }

        private let box: Box
        private final class Box: @unchecked Sendable {
            var bytes: [UInt8] = []
            func append(_ more: ArraySlice<UInt8>) { bytes += more }
        }

        /// Everything read, once the writer has closed its end.
        var text: String {
            get async {
                await finished.wait()
                return String(decoding: box.bytes, as: UTF8.self)
            }
        }
    }

    @Test func aDiskThatIsBehindHoldsUpNoSampleAndLosesNone() async throws {
        let (path, reader) = try Self.stalledDisk()
        let recorder = try TraceRecorder(path: path, header: Self.header)
        // Far more than the pipe holds (64 KiB, ~700 lines): were the
        // producer writing itself, it would block here for ever.
        for index in 0..<5000 {
            let (t, a) = Self.sample(index)
            try recorder.append(timestampNanoseconds: t, raw: nil, acceleration: a)
        }
        let drained = Drain(reader)
        #expect(await recorder.close(waitingAtMost: .seconds(60)) == nil)
        let text = await drained.text
        let copy = try TestPaths.temporaryDirectory() + "/copy.trace"
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        let recording = try Recording.load(path: copy)
        #expect(recording.readings.map(\.timestampNanoseconds) == (0..<5000).map { Self.sample($0).0 })
        #expect(recording.gaps.isEmpty && recording.warnings.isEmpty)
        #expect(recorder.samplesLeftOut == 0)
    }

    @Test func pastItsCapacityTheTraceMarksWhatWasLeftOutAndStaysWhole() async throws {
        let (path, reader) = try Self.stalledDisk()
        let log = LogCapture()
        let recorder = try TraceRecorder(path: path, header: Self.header, capacity: 4096, logger: log.logger)
        for index in 0..<3000 {
            let (t, a) = Self.sample(index)
            try recorder.append(timestampNanoseconds: t, raw: nil, acceleration: a)
        }
        let leftOut = recorder.samplesLeftOut
        #expect(leftOut > 0)
        #expect(log.lines.contains { $0.contains("the disk is behind") && $0.contains(path) }, "\(log.lines)")
        let drained = Drain(reader)
        // Samples go on until one is taken again, once the disk reads: the
        // gap goes before it.
        let next = Counter(3000)
        try await waitUntil("room in the recorder's mailbox once the disk reads again") {
            while !Task.isCancelled {
                let before = recorder.samplesLeftOut
                let (t, a) = Self.sample(next.value)
                try? recorder.append(timestampNanoseconds: t, raw: nil, acceleration: a)
                if recorder.samplesLeftOut == before { return true }
                next.value += 1
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
        _ = await recorder.close(waitingAtMost: .seconds(60))
        let text = await drained.text
        let copy = try TestPaths.temporaryDirectory() + "/copy.trace"
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        let recording = try Recording.load(path: copy)
        #expect(recording.warnings.isEmpty, "every line is whole: \(recording.warnings)")
        // Each stretch left out is marked where it was, with its count.
        let counts = recording.gaps.compactMap { gap -> Int? in
            guard gap.reason.hasSuffix(" sample(s) left out: the disk was behind") else { return nil }
            return Int(gap.reason.prefix { $0.isNumber })
        }
        #expect(!counts.isEmpty && counts.count == recording.gaps.count, "\(recording.gaps)")
        #expect(counts.reduce(0, +) == recorder.samplesLeftOut)
        let written = recording.readings.map(\.timestampNanoseconds)
        #expect(written == written.sorted() && Set(written).count == written.count, "in order, none twice")
        #expect(written.count == next.value + 1 - recorder.samplesLeftOut)
        #expect(written.last == Self.sample(next.value).0)
    }

    final class Counter: @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func itWritesWhatTheDirectWriterWrites() async throws {
        let directory = try TestPaths.temporaryDirectory()
        let direct = directory + "/direct.trace"
        let recorded = directory + "/recorded.trace"
        var header = Self.header
        header.gyro = TraceGyroHeader(name: "gyro", scale: SIMD3(1, 1, 1), offset: .zero)
        let writer = try TraceWriter(path: direct, header: header)
        let recorder = try TraceRecorder(path: recorded, header: header)
        for index in 0..<50 {
            let (t, a) = Self.sample(index)
            let rate = index % 3 == 0 ? nil : SIMD3(0.1, -0.2, Double(index) / 7)
            try writer.append(timestampNanoseconds: t, raw: SIMD3(1, 2, 3), acceleration: a, rotationRate: rate,
                              rawRotation: rate.map { $0 * 100 })
            try recorder.append(timestampNanoseconds: t, raw: SIMD3(1, 2, 3), acceleration: a, rotationRate: rate,
                                rawRotation: rate.map { $0 * 100 })
            if index == 20 {
                try writer.appendGap(timestampNanoseconds: t + 1, reason: "device vanished")
                recorder.appendGap(timestampNanoseconds: t + 1, reason: "device vanished")
            }
        }
        try writer.close()
        #expect(await recorder.close(waitingAtMost: .seconds(60)) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: recorded)) == Data(contentsOf: URL(fileURLWithPath: direct)))
    }
}
