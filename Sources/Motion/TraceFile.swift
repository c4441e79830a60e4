import Glibc

/// Reads a whole file into memory with plain `read(2)` calls.
enum TraceFile {
    /// The file's bytes.
    ///
    /// - Throws: `TraceError.io` naming the path and the system's reason.
    static func bytes(path: String) throws -> [UInt8] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceError.io(path: path, operation: "open the recording", reason: TraceWriter.errnoText())
        }
        defer { Glibc.close(descriptor) }
        var status = stat()
        var expected = 0
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            expected = Int(status.st_size)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected + 1)
        var chunk = max(expected + 1, 1 << 16)
        while true {
            let before = bytes.count
            var readCount = 0
            var failure: Int32 = 0
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            bytes.withUnsafeMutableBytes { buffer in
                let result = Glibc.read(descriptor, buffer.baseAddress! + before, chunk)
                if result < 0 { failure = errno } else { readCount = result }
            }
            if failure == EINTR {
                bytes.removeLast(chunk)
                continue
            }
            bytes.removeLast(chunk - readCount)
            if failure != 0 {
                errno = failure
                throw TraceError.io(path: path, operation: "read the recording", reason: TraceWriter.errnoText())
            }
            if readCount == 0 { return bytes }
            chunk = 1 << 16
        }
    }
}
