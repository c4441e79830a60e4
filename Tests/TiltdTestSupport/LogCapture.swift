import Logging
import Streaming
import Synchronization

/// Collects the lines a `TiltdLogHandler` writes, for tests that check
/// what tiltd tells the user.
public final class LogCapture: Sendable {
    private let captured = Mutex<[String]>([])

    public init() {}

    /// A logger in tiltd's format (debug and up) writing into this capture.
    public var logger: Logger {
        Logger(label: "test") { _ in
            TiltdLogHandler(logLevel: .debug) { bytes in
                self.captured.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Every line so far, without its newline.
    public var lines: [String] {
        captured.withLock { $0.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 } }
    }
}
