import Glibc
import Knob
import Motion
import Sensors

/// Writes states to standard output as JSON Lines (`KnobState.appendJSONLine`).
///
/// Lines are collected in a byte buffer and written with `write(2)`: after
/// every line when `flushEachLine` (live capture, `--realtime`), otherwise in
/// 64 KiB chunks and at `flush()`/deinit, so replaying a million states costs
/// a few hundred system calls instead of a million.
final class StdoutSink: StateSink {
    /// Buffered bytes that trigger a write when not flushing each line.
    static let chunkBytes = 1 << 16

    private let flushEachLine: Bool
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// - Parameters:
    ///   - flushEachLine: write every line as soon as it is emitted.
    ///   - descriptor: the file descriptor (standard output by default).
    init(flushEachLine: Bool, descriptor: Int32 = STDOUT_FILENO) {
        self.flushEachLine = flushEachLine
        self.descriptor = descriptor
        buffer.reserveCapacity(StdoutSink.chunkBytes + 512)
    }

    deinit { flush() }

    func emit(_ state: KnobState) {
        state.appendJSONLine(to: &buffer)
        if flushEachLine || buffer.count >= StdoutSink.chunkBytes { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        if failure != 0 {
            // stdout is gone (closed pipe, full disk): nothing useful left to do with states.
            StdoutSink.writeStandardError("tiltd: error: cannot write to standard output: "
                                          + FileDescriptorWriter.describe(failure))
            exit(EXIT_FAILURE)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes one line to standard error (diagnostics never go to stdout,
    /// which carries only states).
    static func writeStandardError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = Glibc.write(STDERR_FILENO, $0.baseAddress!, $0.count) }
    }
}
