import Foundation
import Glibc

/// A Unix stream socket client for the state-stream tests: connects, reads
/// whole lines with a wall-clock limit, or stalls by not reading at all.
public final class SocketTestClient: @unchecked Sendable {
    // Safe: each test uses a client from one thread at a time (a reader
    // thread takes it over until it finishes).
    public let fileDescriptor: Int32
    private var pending: [UInt8] = []

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Connects to `path`.
    ///
    /// - Parameter receiveBufferBytes: SO_RCVBUF, small for a client meant to stall.
    public init(path: String, receiveBufferBytes: Int32? = nil) throws {
        fileDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fileDescriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBufferBytes {
            setsockopt(fileDescriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fileDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            // No close here: every stored property is set, so a throw still
            // runs deinit, which closes the descriptor. Closing it twice could
            // close a number another thread has just been given (NIO then
            // traps with EBADF registering its accepted connection).
            throw Failure(description: "connect \(path): errno \(errno)")
        }
    }

    deinit { close(fileDescriptor) }

    /// The next line without its newline, or nil when none arrives within
    /// `timeout` seconds or the server closed the connection.
    public func readLine(timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, fill(timeout: remaining) else { return nil }
        }
    }

    /// Every complete line that arrives until `timeout` seconds pass with
    /// nothing new, or until `until` returns true for a line.
    public func readLines(quietFor timeout: TimeInterval, until: (String) -> Bool = { _ in false }) -> [String] {
        var lines: [String] = []
        while let line = readLine(timeout: timeout) {
            lines.append(line)
            if until(line) { break }
        }
        return lines
    }

    /// True when the server closed the connection within `timeout` seconds.
    public func sawEndOfStream(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var fds = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, 50) >= 0 else { return false }
            if fds.revents == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(fileDescriptor, &buffer, buffer.count)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
        return false
    }

    private func fill(timeout: TimeInterval) -> Bool {
        var fds = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fds, 1, Int32(max(1, timeout * 1000)))
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(fileDescriptor, &buffer, buffer.count)
        guard n > 0 else { return false }
        pending.append(contentsOf: buffer[..<n])
        return true
    }
}
