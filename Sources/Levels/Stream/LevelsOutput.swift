import Foundation
import Motion
import Platform
import Wording

/// Where `tiltd levels` writes: JSON Lines on stdout (one write per line, so
/// a reader sees each update at once), messages on stderr, and the end of
/// the run (a signal, the line count reached, stdout gone).
///
/// `@unchecked Sendable`: the line buffer and counters are guarded by `lock`;
/// levels arrive on libpulse's thread while signals arrive on a dispatch queue.
public final class LevelsOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let countLimit: Int?
    private var written = 0
    private var line: [UInt8] = []
    /// Opened, under `lock`, when the run ends.
    private let ended = Latch()
    public private(set) var failed = false
    /// Where the run's diagnostics go (the log handler).
    public let report: @Sendable (Diagnostic) -> Void

    /// - Parameters:
    ///   - countLimit: end after this many lines (nil: until `end()`).
    ///   - report: where the run's diagnostics go (the log handler).
    public init(countLimit: Int?, report: @escaping @Sendable (Diagnostic) -> Void) {
        self.countLimit = countLimit
        self.report = report
        line.reserveCapacity(64)
    }

    /// Writes one record unless the run has ended; ends it at the limit.
    public func write(_ levels: ChannelLevels) {
        lock.lock()
        defer { lock.unlock() }
        guard !ended.isOpen else { return }
        line.removeAll(keepingCapacity: true)
        levels.appendJSONLine(to: &line)
        let failure = line.withUnsafeBytes { FileDescriptorWriter.writeAll(STDOUT_FILENO, $0) }
        if failure != 0 {
            report(.error("cannot write to standard output: \(FileDescriptorWriter.describe(failure))"))
            failed = true
            ended.open()
            return
        }
        written += 1
        if let countLimit, written >= countLimit { ended.open() }
    }

    /// Whether the run has ended (signal, limit or failed write).
    public var isEnded: Bool { ended.isOpen }

    /// Ends the run; `waitForEnd()` returns.
    public func end() {
        lock.lock()
        ended.open()
        lock.unlock()
    }

    /// Returns once the run has ended.
    public func waitForEnd() async {
        await ended.wait()
    }
}
