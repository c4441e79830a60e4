import Glibc
import Knob
import Logging
import Motion
import Platform

/// Writes states to standard output as JSON Lines (`EncodedState.line`).
///
/// Live (`flushEachLine`: `run`, a replay paced by `Setting.realtime`), each line goes to a
/// mailbox written by a thread of its own (`OutputMailbox`): the producer
/// never waits on standard output's reader, so a pipe nobody reads (`|
/// less`, a terminal's Ctrl-S) stalls no other consumer and no signal.
/// While the reader is behind by more than the mailbox holds (64 KiB, about
/// 400 lines), new lines are dropped whole and counted: the log says so
/// when it starts and, with the count, when lines fit again.
///
/// Otherwise (a replay as fast as it goes, where every line is wanted)
/// lines are collected in a byte buffer and written with `write(2)` on the
/// producer's thread in 64 KiB chunks and at `flush()`/deinit: a slow
/// reader slows the replay and nothing is lost, and replaying a million
/// states costs a few hundred system calls instead of a million.
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
    /// How long a stop by a signal (or a failure) waits for live output's
    /// last lines: a reader that stopped reading never holds a stop up.
    public static let stopWait = Duration.milliseconds(500)
    /// How long the natural end of a run waits for them.
    public static let endWait = Duration.seconds(10)

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Live output's writer (nil when not `flushEachLine`, or discarding).
    private let mailbox: OutputMailbox?
    /// True when the descriptor is /dev/null: states are dropped unencoded.
    public let discards: Bool
    /// Why writing stopped, once it has (already logged).
    public private(set) var failure: ReportedFailure?
    /// The service that ends the run when writing fails.
    public let watch: FailureWatch
    /// Lines live output dropped because its reader was behind, since the start.
    public var droppedLines: Int { mailbox?.droppedTotal ?? 0 }

    /// - Parameters:
    ///   - flushEachLine: write every line as soon as it is emitted, from a
    ///     thread of its own, dropping lines a stalled reader cannot take.
    ///   - descriptor: the file descriptor (standard output by default).
    ///   - mailboxBytes: what live output holds for a reader that is behind.
    ///   - logger: where a failed write and dropped lines are reported.
    public init(flushEachLine: Bool, descriptor: Int32 = STDOUT_FILENO, mailboxBytes: Int = 64 * 1024,
                logger: Logger = TiltdLog.logger) {
        self.descriptor = descriptor
        let watch = FailureWatch(logger: logger)
        self.watch = watch
        discards = StdoutSink.isDevNull(descriptor)
        if flushEachLine && !discards {
            mailbox = OutputMailbox(descriptor: descriptor, capacity: mailboxBytes) { event in
                switch event {
                case .droppingStarted:
                    logger.warning("standard output is not being read: dropping states until it is")
                case .droppingEnded(let count):
                    logger.notice("standard output is read again; \(count) state(s) were dropped while it was not")
                case .failed(let error):
                    watch.report(ReportedFailure(description: StdoutSink.failureMessage(error)))
                }
            }
        } else {
            mailbox = nil
            if !discards { buffer.reserveCapacity(StdoutSink.chunkBytes + 512) }
        }
    }

    /// Whether `descriptor` is the null device (character device 1:3 on Linux).
    static func isDevNull(_ descriptor: Int32) -> Bool {
        guard let status = try? Posix.status(ofDescriptor: descriptor), status.st_mode & S_IFMT == S_IFCHR,
              let null = try? Posix.status(ofPath: "/dev/null"), null.st_mode & S_IFMT == S_IFCHR else { return false }
        return status.st_rdev == null.st_rdev
    }

    deinit {
        flush()
        mailbox?.requestClose()
    }

    /// Standard output writes every state's record, unless it is /dev/null.
    public var usesRecords: Bool { !discards }

    public func emit(_ state: EncodedState) {
        if discards || failure != nil { return }
        if let mailbox {
            state.line.withUnsafeBytes { _ = mailbox.offer($0) }
            return
        }
        buffer.append(contentsOf: state.line)
        if buffer.count >= StdoutSink.chunkBytes { flush() }
    }

    public func flush() {
        guard mailbox == nil, !buffer.isEmpty, failure == nil else { return }
        let error = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        buffer.removeAll(keepingCapacity: true)
        if error != 0 {
            // stdout is gone: nothing useful is left to do with states.
            let failure = ReportedFailure(description: Self.failureMessage(error))
            self.failure = failure
            watch.report(failure)
        }
    }

    /// Ends live output: what the mailbox holds is written, waiting for it
    /// at most `limit` (a reader that stopped reading must not hold up a
    /// stop: what it has not taken is then lost, and said so). Call once
    /// the producer has stopped.
    public func close(waitingAtMost limit: Duration, logger: Logger = TiltdLog.logger) async {
        guard let mailbox else { return flush() }
        if await !mailbox.close(waitingAtMost: limit) {
            logger.warning("standard output was not read for \(limit); the last states were not written")
        }
    }
}
