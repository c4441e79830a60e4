import Glibc
import Logging
import Motion
import Platform
import Synchronization
import Traces

/// Records a live device's samples as a trace (`Setting.record`, `tiltd
/// record`), off the producer's thread: each sample's line is formatted on
/// the capture thread and handed to a mailbox (`OutputMailbox`) whose own
/// thread writes it, so a slow disk holds up that thread only and never the
/// other consumers.
///
/// The mailbox holds up to `capacity` bytes (16 MiB: over 20 minutes of a
/// 200 Hz gyro trace) while the disk is behind; the log says so once. Only
/// past that are samples left out, and then the trace says so in place: a
/// gap line (`g`) before the next sample written, with how many were left
/// out, so a replay knows where the data is missing and every line is whole.
///
/// When a write fails (a full disk), `failure` says why and the run ends
/// with it.
public final class TraceRecorder: @unchecked Sendable {
    // Safe to share: `append`, `appendGap` and `close` are called from one
    // thread at a time (the capture thread, then the run's end); the
    // mailbox and `failed` are thread-safe.

    /// The trace's file.
    public let path: String
    /// What the mailbox holds for a disk that is behind.
    public static let defaultCapacity = 16 << 20
    /// The trace format's version (2 when the header has a gyro).
    public let version: Int
    private let descriptor: Int32
    private let mailbox: OutputMailbox
    private let failed = FirstFailure()
    private var line: [UInt8] = []
    /// Samples left out since the last line that fitted, and the first one's time.
    private var leftOut = 0
    private var leftOutSince: Int64 = 0

    /// Creates (or truncates) `path` and writes the header at once.
    ///
    /// - Throws: `TraceError.io` when the file cannot be created or the
    ///   header written, `.invalidHeaderKey` for a bad `extra` key.
    public convenience init(path: String, header: TraceHeader, capacity: Int = TraceRecorder.defaultCapacity,
                            logger: Logger = TiltdLog.logger) throws {
        let text = try TraceWriter.headerText(header, path: path)
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceError.io(path: path, operation: "create the trace", reason: String(cString: strerror(errno)))
        }
        try self.init(descriptor: descriptor, path: path, headerText: text, version: TraceWriter.version(of: header),
                      capacity: capacity, logger: logger)
    }

    /// Records into `descriptor`, a file the caller created (and this
    /// recorder now owns: it closes it), writing the header at once.
    ///
    /// - Parameter path: the file's path, for messages.
    /// - Throws: `TraceError.io` when the header cannot be written (the
    ///   descriptor is then closed), `.invalidHeaderKey` for a bad `extra` key.
    public convenience init(descriptor: Int32, path: String, header: TraceHeader,
                            capacity: Int = TraceRecorder.defaultCapacity, logger: Logger = TiltdLog.logger) throws {
        let text: String
        do {
            text = try TraceWriter.headerText(header, path: path)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        try self.init(descriptor: descriptor, path: path, headerText: text, version: TraceWriter.version(of: header),
                      capacity: capacity, logger: logger)
    }

    private init(descriptor: Int32, path: String, headerText text: String, version: Int, capacity: Int,
                 logger: Logger) throws {
        let error = Array(text.utf8).withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        guard error == 0 else {
            Glibc.close(descriptor)
            throw TraceError.io(path: path, operation: "write to the trace", reason: FileDescriptorWriter.describe(error))
        }
        self.path = path
        self.descriptor = descriptor
        self.version = version
        line.reserveCapacity(192)
        let failed = self.failed
        mailbox = OutputMailbox(descriptor: descriptor, capacity: capacity, name: "tiltd.record") { event in
            switch event {
            case .droppingStarted:
                logger.warning("\(path): the disk is behind by \(capacity >> 20) MiB of samples; leaving samples out (the trace marks where) until it catches up")
            case .droppingEnded:
                break
            case .failed(let error):
                let message = TraceError.io(path: path, operation: "write to the trace",
                                            reason: FileDescriptorWriter.describe(error)).description
                failed.set(message)
            }
        }
    }

    deinit {
        mailbox.requestClose()
    }

    /// Why writing stopped, once it has: the run ends with it.
    public var failure: String? { failed.message }

    /// Samples left out so far for want of room (none while the disk keeps up).
    public var samplesLeftOut: Int { mailbox.droppedTotal }

    /// Records one sample (the capture thread; never waits on the disk).
    ///
    /// - Throws: `TraceError.gyroInVersion1` for a rate in a trace whose
    ///   header has no gyro.
    public func append(timestampNanoseconds: Int64, raw: SIMD3<Double>?, acceleration: SIMD3<Double>,
                       rotationRate: SIMD3<Double>? = nil, rawRotation: SIMD3<Double>? = nil) throws {
        if rotationRate != nil && version < 2 { throw TraceError.gyroInVersion1(path: path) }
        line.removeAll(keepingCapacity: true)
        if leftOut > 0 {
            line.append(contentsOf: TraceWriter.gapLine(
                timestampNanoseconds: leftOutSince,
                reason: "\(leftOut) sample(s) left out: the disk was behind").utf8)
        }
        TraceWriter.appendSample(timestampNanoseconds: timestampNanoseconds, raw: raw, acceleration: acceleration,
                                 rotationRate: rotationRate, rawRotation: rawRotation, to: &line)
        if line.withUnsafeBytes({ mailbox.offer($0) }) {
            leftOut = 0
        } else {
            if leftOut == 0 { leftOutSince = timestampNanoseconds }
            leftOut += 1
        }
    }

    /// Records a gap marker (the device failed; `g <ns> <reason>`).
    public func appendGap(timestampNanoseconds: Int64, reason: String) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: TraceWriter.gapLine(timestampNanoseconds: timestampNanoseconds, reason: reason).utf8)
        _ = line.withUnsafeBytes { mailbox.offer($0) }
    }

    /// Writes what the mailbox holds, waiting for the disk at most `limit`,
    /// and closes the file. Call once, after the last `append`.
    ///
    /// - Returns: why the trace is not whole, or nil when it is.
    public func close(waitingAtMost limit: Duration) async -> String? {
        closed(written: await mailbox.close(waitingAtMost: limit), limit: limit)
    }

    /// `close(waitingAtMost:)` on a thread of the caller's own, which it blocks.
    public func closeBlocking(waitingAtMost limit: Duration) -> String? {
        closed(written: mailbox.closeBlocking(waitingAtMost: limit), limit: limit)
    }

    private func closed(written: Bool, limit: Duration) -> String? {
        if let failure { return failure }
        guard written else {
            return "\(path): the disk took longer than \(limit) to write the last samples; the trace ends early"
        }
        if Glibc.close(descriptor) != 0 {
            return TraceError.io(path: path, operation: "close the trace", reason: String(cString: strerror(errno))).description
        }
        if leftOut > 0 { return "\(path): the last \(leftOut) sample(s) were left out: the disk was behind" }
        return nil
    }
}

/// The first failure reported (any thread).
private final class FirstFailure: Sendable {
    private let first = Mutex<String?>(nil)
    var message: String? { first.withLock { $0 } }
    func set(_ message: String) { first.withLock { $0 = $0 ?? message } }
}
