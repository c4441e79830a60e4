#if canImport(Glibc)
import Glibc
#endif

/// One-line messages about devices on standard error ("tiltd: …").
enum DeviceDiagnostics {
    /// Writes `tiltd: message` and a newline to stderr, unbuffered.
    static func print(_ message: String) {
        let line = "tiltd: \(message)\n"
        // One write(2) per line: unbuffered, and whole even when threads interleave.
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
    }
}
