import Glibc
import Motion
import Platform

extension StdoutSink {
    /// Writes one text line to standard output at once, so a pipe reader
    /// sees each as it happens (`tiltd monitor`).
    ///
    /// - Returns: the failure when standard output is gone (for `FailureWatch.report`).
    public static func writeLine(_ line: String) -> ReportedFailure? {
        let bytes = Array((line + "\n").utf8)
        let error = bytes.withUnsafeBytes { FileDescriptorWriter.writeAll(STDOUT_FILENO, $0) }
        return error == 0 ? nil : ReportedFailure(description: failureMessage(error))
    }

    static func failureMessage(_ error: Int32) -> String {
        "cannot write to standard output: \(FileDescriptorWriter.describe(error))"
    }
}
