import Glibc
import Motion

extension StdoutSink {
    /// Writes one text line to standard output at once, so a pipe reader
    /// sees each as it happens (`tiltd monitor`); stdout gone ends the
    /// process as in `flush()`.
    @Sendable public static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        let failure = bytes.withUnsafeBytes { FileDescriptorWriter.writeAll(STDOUT_FILENO, $0) }
        if failure != 0 {
            TiltdLog.logger.error("cannot write to standard output: \(FileDescriptorWriter.describe(failure))")
            exit(EXIT_FAILURE)
        }
    }
}
