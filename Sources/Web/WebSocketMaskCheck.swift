import NIOCore

/// Follows the frame headers of a WebSocket's byte stream from the browser
/// and finds the first frame that is not masked.
///
/// RFC 6455 §5.1: a client masks every frame it sends, and a server that
/// receives an unmasked frame must close the connection (status 1002,
/// protocol error). SwiftNIO's frame decoder and hummingbird-websocket
/// accept unmasked frames and have no option to refuse them, so
/// `WebConnectionGuard`, which sees every byte first, runs this over what
/// arrives once the connection is a WebSocket.
///
/// It holds at most one frame header (14 bytes) and a payload count: the
/// payload itself only passes by.
struct WebSocketMaskCheck {
    /// The header bytes of the frame being read so far (up to 14).
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to pass.
    private var payloadLeft: UInt64 = 0

    /// The close frame a server sends for a protocol error (1002), with no reason.
    static let protocolErrorClose: [UInt8] = [0x88, 0x02, 0x03, 0xEA]

    /// Scans `buffer`'s readable bytes.
    ///
    /// - Returns: false when a frame in it (or begun before it) is unmasked.
    mutating func scan(_ buffer: ByteBuffer) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count {
                if payloadLeft > 0 {
                    let skipped = min(UInt64(bytes.count - index), payloadLeft)
                    payloadLeft -= skipped
                    index += Int(skipped)
                    continue
                }
                header.append(bytes[index])
                index += 1
                guard header.count >= 2 else { continue }
                guard header[1] & 0x80 != 0 else { return false }
                let short = header[1] & 0x7F
                let lengthBytes = short == 127 ? 8 : short == 126 ? 2 : 0
                guard header.count == 2 + lengthBytes + 4 else { continue }
                var length = UInt64(short)
                if lengthBytes > 0 {
                    length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
                }
                payloadLeft = length
                header.removeAll(keepingCapacity: true)
            }
            return true
        }
    }
}
