import NIOCore
import Testing
@testable import Web

/// The frame-header walk that finds an unmasked client frame
/// (`WebSocketMaskCheck`), fed in every split.
@Suite(.timeLimit(.minutes(2))) struct WebSocketMaskCheckTests {
    /// Frames with 7-bit, 16-bit and 64-bit lengths, masked (key 1 2 3 4).
    static func frame(length: Int, masked: Bool, lengthBytes: Int? = nil) -> [UInt8] {
        let mask: UInt8 = masked ? 0x80 : 0
        var bytes: [UInt8] = [0x82]
        switch lengthBytes ?? (length < 126 ? 0 : length <= 0xFFFF ? 2 : 8) {
        case 0: bytes.append(mask | UInt8(length))
        case 2: bytes += [mask | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        default: bytes += [mask | 127] + (0..<8).reversed().map { UInt8((UInt64(length) >> (8 * UInt64($0))) & 0xFF) }
        }
        return bytes + (masked ? [1, 2, 3, 4] : []) + [UInt8](repeating: 0x01, count: length)
    }

    /// Whether the check passes `bytes` fed in pieces of `piece` bytes.
    static func passes(_ bytes: [UInt8], piece: Int) -> Bool {
        var check = WebSocketMaskCheck()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            if !check.scan(ByteBuffer(bytes: bytes[start..<end])) { return false }
            start = end
        }
        return true
    }

    @Test(arguments: [1, 2, 3, 7, 13, 100_000])
    func maskedFramesPassAndTheFirstUnmaskedOneIsFound(piece: Int) {
        // Payloads full of 0x01 bytes (no mask bit): a header walk that lost its
        // place would read them as unmasked headers.
        let masked = Self.frame(length: 0, masked: true) + Self.frame(length: 125, masked: true)
            + Self.frame(length: 126, masked: true) + Self.frame(length: 70_000, masked: true)
            + Self.frame(length: 5, masked: true, lengthBytes: 8)
        #expect(Self.passes(masked, piece: piece))
        #expect(!Self.passes(masked + Self.frame(length: 3, masked: false), piece: piece))
        #expect(!Self.passes(masked + Array(Self.frame(length: 70_000, masked: false).prefix(2)), piece: piece),
                "found from the first two header bytes")
    }
}
