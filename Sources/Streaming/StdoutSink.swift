import Glibc
import Knob
import Logging
import Motion

/// Writes states to standard output as JSON Lines (`KnobState.appendJSONLine`).
///
/// Lines are collected in a byte buffer and written with `write(2)`: after
/// every line when `flushEachLine` (live capture, `--realtime`), otherwise in
/// 64 KiB chunks and at `flush()`/deinit, so replaying a million states costs
/// a few hundred system calls instead of a million.
///
/// When the descriptor is /dev/null (systemd's `StandardOutput=null`, the
/// unit's setting, or `> /dev/null` beside `--listen`) nothing is encoded or
/// written: the write(2) per state would be thrown away by the kernel anyway.
public final class StdoutSink: StateSink {
    /// Buffered bytes that trigger a write when not flushing each line.
    public static let chunkBytes = 1 << 16

    private let flushEachLine: Bool
    private let descriptor: Int32
    private let logger: Logger
    private var buffer: [UInt8] = []
    /// True when the descriptor is /dev/null: states are dropped unencoded.
    public let discards: Bool

    /// - Parameters:
    ///   - flushEachLine: write every line as soon as it is emitted.
    ///   - descriptor: the file descriptor (standard output by default).
    ///   - logger: where a failed write is reported before the process exits.
    public init(flushEachLine: Bool, descriptor: Int32 = STDOUT_FILENO, logger: Logger = TiltdLog.logger) {
        self.flushEachLine = flushEachLine
        self.descriptor = descriptor
        self.logger = logger
        discards = StdoutSink.isDevNull(descriptor)
        if !discards { buffer.reserveCapacity(StdoutSink.chunkBytes + 512) }
    }

    /// Whether `descriptor` is the null device (character device 1:3 on Linux).
    static func isDevNull(_ descriptor: Int32) -> Bool {
        guard let status = try? Posix.status(ofDescriptor: descriptor), status.st_mode & S_IFMT == S_IFCHR,
              let null = try? Posix.status(ofPath: "/dev/null"), null.st_mode & S_IFMT == S_IFCHR else { return false }
        return status.st_rdev == null.st_rdev
    }

    deinit { flush() }

    public func emit(_ state: KnobState) {
        if discards { return }
        state.appendJSONLine(to: &buffer)
        if flushEachLine || buffer.count >= StdoutSink.chunkBytes { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        if failure != 0 {
            // stdout is gone (closed pipe, full disk): nothing useful is left
            // to do with states. exit() runs the atexit hook that removes a
            // socket file (UnixSocketCleanup).
            logger.error("cannot write to standard output: \(FileDescriptorWriter.describe(failure))")
            exit(EXIT_FAILURE)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
