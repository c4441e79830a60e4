import Glibc
import Knob
import Logging
import Motion

/// Writes states to standard output as JSON Lines (`KnobState.appendJSONLine`).
///
/// Lines are collected in a byte buffer and written with `write(2)`: after
/// every line when `flushEachLine` (live capture, `Setting.realtime`), otherwise in
/// 64 KiB chunks and at `flush()`/deinit, so replaying a million states costs
/// a few hundred system calls instead of a million.
///
/// When standard output fails (a closed pipe, a full disk) the error is
/// logged once, later states are dropped, and `watch` ends the run with that
/// failure: the services stop as on any other end (the socket file is
/// removed) and the command exits 1.
///
/// When the descriptor is /dev/null (systemd's `StandardOutput=null`, the
/// unit's setting, or `> /dev/null` beside `Setting.listen`) nothing is encoded or
/// written: the write(2) per state would be thrown away by the kernel anyway.
public final class StdoutSink: StateSink {
    /// Buffered bytes that trigger a write when not flushing each line.
    public static let chunkBytes = 1 << 16

    private let flushEachLine: Bool
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// True when the descriptor is /dev/null: states are dropped unencoded.
    public let discards: Bool
    /// Why writing stopped, once it has (already logged).
    public private(set) var failure: ReportedFailure?
    /// The service that ends the run when writing fails.
    public let watch: FailureWatch

    /// - Parameters:
    ///   - flushEachLine: write every line as soon as it is emitted.
    ///   - descriptor: the file descriptor (standard output by default).
    ///   - logger: where a failed write is reported before the run ends.
    public init(flushEachLine: Bool, descriptor: Int32 = STDOUT_FILENO, logger: Logger = TiltdLog.logger) {
        self.flushEachLine = flushEachLine
        self.descriptor = descriptor
        watch = FailureWatch(logger: logger)
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
        if discards || failure != nil { return }
        state.appendJSONLine(to: &buffer)
        if flushEachLine || buffer.count >= StdoutSink.chunkBytes { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty, failure == nil else { return }
        let error = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        buffer.removeAll(keepingCapacity: true)
        if error != 0 {
            // stdout is gone: nothing useful is left to do with states.
            let failure = ReportedFailure(description: Self.failureMessage(error))
            self.failure = failure
            watch.report(failure)
        }
    }
}
