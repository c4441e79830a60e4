import Logging
import Streaming
import Synchronization

/// Collects the lines a `TiltdLogHandler` writes, for tests that check
/// what tiltd tells the user.
final class LogCapture: Sendable {
    private let captured = Mutex<[String]>([])

    /// A logger in tiltd's format (debug and up) writing into this capture.
    var logger: Logger {
        Logger(label: "test") { _ in
            TiltdLogHandler(logLevel: .debug) { bytes in
                self.captured.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Every line so far, without its newline.
    var lines: [String] {
        captured.withLock { $0.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 } }
    }
}
