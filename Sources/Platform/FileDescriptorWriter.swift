#if canImport(Glibc)
import Glibc
#endif

/// Writing whole buffers to a file descriptor.
public enum FileDescriptorWriter {
    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and
    /// EINTR, so a record is never left half written by a signal.
    ///
    /// - Returns: 0 on success, else the `errno` of the failed write(2).
    ///   The corresponding C function is `write`.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// `errno` as the C library words it.
    public static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
