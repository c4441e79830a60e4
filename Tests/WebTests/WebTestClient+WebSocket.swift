import Foundation

extension WebTestClient {
    /// Opens `/ws` on a fresh connection (with `origin`, or none) and
    /// checks the upgrade was accepted.
    static func webSocket(port: UInt16, origin: String? = nil) throws -> WebTestClient {
        let client = try WebTestClient(port: port)
        client.send("GET", "/ws", port: port, headers: WebServerTests.upgradeHeaders(origin: origin))
        let response = try client.readResponse()
        guard response.status == 101 else { throw Failure(description: "/ws answered \(response.status): \(response.body)") }
        return client
    }

    /// Sends one text message as a client must: a single masked frame (RFC 6455 §5.3).
    @discardableResult
    func sendWebSocketText(_ text: String) -> Bool {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame.append(0x80 | 126)
            frame.append(UInt8(payload.count >> 8))
            frame.append(UInt8(payload.count & 0xFF))
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame.append(contentsOf: mask)
        frame.append(contentsOf: payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return write(frame)
    }

    /// The close frame the server sent among what arrived (opcode 0x8): its
    /// status code and reason, nil when none came.
    var receivedCloseFrame: (code: Int, reason: String)? {
        let bytes = unreadBytes
        var i = 0
        while i + 2 <= bytes.count {
            let opcode = bytes[i] & 0x0F
            var length = Int(bytes[i + 1] & 0x7F), start = i + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { return nil }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            }
            guard start + length <= bytes.count else { return nil }
            if opcode == 0x8, length >= 2 {
                let code = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                return (code, String(decoding: bytes[(start + 2)..<(start + length)], as: UTF8.self))
            }
            i = start + length
        }
        return nil
    }
}
