import Foundation
import Glibc
import TiltdTestSupport

/// A raw HTTP/1.1 client over TCP for the web tests: exact control of the
/// method and headers (Origin, WebSocket upgrade) and of streamed bodies.
final class WebTestClient: @unchecked Sendable {
    // Safe: each test drives a client from one thread at a time.
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []

    struct Response {
        var status: Int
        var headers: [String: String]  // lowercased names
        var body: String
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Connects to `host:port`, from the loopback address `from` when given
    /// (e.g. `127.0.0.2`: Linux routes all of 127/8 to the loopback, so one
    /// test can be several clients).
    init(port: UInt16, host: String = "127.0.0.1", from source: String? = nil) throws {
        TestFileLimit.raise()  // floods of these share the process with other suites' servers
        fileDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fileDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw Failure(description: "bind \(source): errno \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fileDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            // deinit closes the descriptor (see SocketTestClient): closing it
            // here too could close another thread's newly opened one.
            throw Failure(description: "connect \(host):\(port): errno \(errno)")
        }
    }

    deinit { close(fileDescriptor) }

    /// Sends a request with `Host` set to the server and `Connection: close`
    /// unless the headers say otherwise.
    func send(_ method: String, _ path: String, port: UInt16, headers: [String: String] = [:], body: String = "") {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if headers["Host"] == nil { head += "Host: 127.0.0.1:\(port)\r\n" }
        var all = headers
        if all["Connection"] == nil { all["Connection"] = "close" }
        if !body.isEmpty { all["Content-Length"] = String(body.utf8.count) }
        for (name, value) in all { head += "\(name): \(value)\r\n" }
        write(Array((head + "\r\n" + body).utf8))
    }

    /// Sends raw bytes; false when the connection refused them (closed, reset).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// True when the server closed the connection (EOF or reset) within
    /// `timeout` seconds; bytes that arrive meanwhile are kept.
    func waitForClose(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            switch read(until: deadline) {
            case .bytes: continue
            case .closed: return true
            case .timedOut: return false
            }
        }
    }

    /// The kernel's view of this end, for failure messages: the TCP state
    /// (1 established), bytes sent but never acknowledged (the server's
    /// kernel never took them: the connection is not in its accept queue)
    /// and retransmissions.
    var tcpSummary: String {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fileDescriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return "errno \(errno)" }
        return "state \(info.tcpi_state) unacked \(info.tcpi_unacked) retransmits \(info.tcpi_total_retrans)"
    }

    /// What arrived so far and was not consumed.
    var unreadBytes: [UInt8] { buffer }

    /// What arrived so far and was not consumed, as text.
    var unreadText: String { String(decoding: buffer, as: UTF8.self) }

    /// Reads the status line and headers, then a body of Content-Length
    /// bytes (or none for 101, chunked/streamed responses and `toHead`,
    /// the answer to a HEAD request).
    func readResponse(timeout: TimeInterval = 10, toHead: Bool = false) throws -> Response {
        let deadline = Date().addingTimeInterval(timeout)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
            if headerEnd == nil, !fill(until: deadline) { throw Failure(description: "no response head within \(timeout) s") }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        buffer.removeSubrange(..<(headerEnd! + 4))
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(head)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = ""
        if !toHead, let length = headers["content-length"].flatMap(Int.init) {
            while buffer.count < length {
                if !fill(until: deadline) { throw Failure(description: "body shorter than \(length) bytes") }
            }
            body = String(decoding: buffer[..<length], as: UTF8.self)
            buffer.removeSubrange(..<length)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads raw bytes of a streamed body until `predicate` holds for what
    /// arrived so far (decoded as UTF-8), or `timeout` passes.
    func readStream(timeout: TimeInterval = 10, until predicate: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = String(decoding: buffer, as: UTF8.self)
        while !predicate(text) {
            guard fill(until: deadline) else { break }
            text = String(decoding: buffer, as: UTF8.self)
        }
        return text
    }

    private func fill(until deadline: Date) -> Bool {
        if case .bytes = read(until: deadline) { return true }
        return false
    }

    private enum ReadResult { case bytes, closed, timedOut }

    /// Appends one read's bytes to the buffer, waiting until `deadline`.
    private func read(until deadline: Date) -> ReadResult {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return .timedOut }
        var fds = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, Int32(max(1, remaining * 1000))) > 0 else { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = Glibc.read(fileDescriptor, &chunk, chunk.count)
        guard n > 0 else { return .closed }
        buffer.append(contentsOf: chunk[..<n])
        return .bytes
    }

    /// Polls the server's `/healthz` on a fresh connection; the response's
    /// status, or nil when none came within `timeout` seconds.
    static func health(port: UInt16, timeout: TimeInterval = 1) -> Int? {
        guard let client = try? WebTestClient(port: port) else { return nil }
        client.send("GET", "/healthz", port: port)
        return (try? client.readResponse(timeout: timeout))?.status
    }

    /// One GET/POST/… on a fresh connection (from the loopback address `from`, if given).
    static func request(_ method: String, _ path: String, port: UInt16,
                        headers: [String: String] = [:], body: String = "", from source: String? = nil) throws -> Response {
        let client = try WebTestClient(port: port, from: source)
        client.send(method, path, port: port, headers: headers, body: body)
        return try client.readResponse(toHead: method == "HEAD")
    }
}
