import Glibc
import Motion

/// Reads a recording into memory with plain `read(2)` calls, bounded:
/// no line may exceed `maximumLineBytes` (so `/dev/zero` or a binary file
/// is refused at once, naming the line), and a pipe, device or standard
/// input (`-`) may give at most `maximumStreamBytes`.
enum TraceFile {
    /// The longest line accepted; real lines are under 200 bytes.
    static let maximumLineBytes = 1 << 16
    /// The most read from anything but a regular file (whose size is known).
    static let maximumStreamBytes = 256 << 20

    /// The name messages use for `path` ("standard input" for `-`).
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// The file's bytes; `-` reads standard input.
    ///
    /// - Throws: `TraceError.io` naming the path and the system's reason;
    ///   `TraceError.malformed` for an over-long line or stream.
    static func bytes(path: String) throws -> [UInt8] {
        let name = displayName(path)
        let descriptor = path == "-" ? STDIN_FILENO : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceError.io(path: name, operation: "open the recording", reason: TraceWriter.errnoText())
        }
        defer { if descriptor != STDIN_FILENO { Glibc.close(descriptor) } }
        var status = stat()
        var expected = 0
        var regular = false
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            expected = Int(status.st_size)
            regular = true
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected + 1)
        var chunk = max(expected + 1, 1 << 16)
        var lines = LineLimit(path: name)
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
                throw TraceError.io(path: name, operation: "read the recording", reason: TraceWriter.errnoText())
            }
            if readCount == 0 { return bytes }
            try bytes.withUnsafeBufferPointer { try lines.scan($0, from: before) }
            if !regular, bytes.count > maximumStreamBytes {
                throw TraceError.malformed(path: name, line: lines.completeLines + 1, problem:
                    "more than \(maximumStreamBytes >> 20) MiB from a pipe or device; save the recording to a file and give that")
            }
            chunk = 1 << 16
        }
    }

    /// Counts lines as bytes arrive and refuses one that grows too long.
    struct LineLimit {
        let path: String
        var completeLines = 0
        var lineStart = 0

        init(path: String) { self.path = path }

        /// The scanned buffer lost its first `count` bytes.
        mutating func dropFirst(_ count: Int) { lineStart -= count }

        mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws {
            let base = buffer.baseAddress!
            var i = start
            while i < buffer.count, let found = memchr(base + i, 0x0A, buffer.count - i) {
                let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                try check(length: end - lineStart)
                completeLines += 1
                i = end + 1
                lineStart = i
            }
            try check(length: buffer.count - lineStart)
        }

        private func check(length: Int) throws {
            guard length > TraceFile.maximumLineBytes else { return }
            throw TraceError.malformed(path: path, line: completeLines + 1, problem:
                "the line is longer than \(TraceFile.maximumLineBytes) bytes: this is not a tiltd trace or CSV "
                + "(a binary file or a device?)")
        }
    }
}
