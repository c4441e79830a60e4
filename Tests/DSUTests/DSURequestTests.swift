@testable import DSU
import Testing
import TiltdTestSupport

/// A client's datagrams, built here from the protocol description (SPEC
/// §16), independently of the server's packet writer.
enum ClientDatagram {
    static func make(type: UInt32, message: [UInt8], version: UInt16 = 1001, clientID: UInt32 = 0xA1B2_C3D4,
                     magic: [UInt8] = Array("DSUC".utf8), lengthAdjustment: Int = 0, corruptCRC: Bool = false) -> [UInt8] {
        var bytes = magic
        bytes += le(version)
        bytes += le(UInt16(4 + message.count + lengthAdjustment))
        bytes += [0, 0, 0, 0]
        bytes += le(clientID)
        bytes += le(type)
        bytes += message
        var crc = referenceCRC32(bytes)
        if corruptCRC { crc ^= 1 }
        bytes.replaceSubrange(8..<12, with: le(crc))
        return bytes
    }

    static func version() -> [UInt8] { make(type: 0x10_0000, message: []) }

    static func portsInfo(_ slots: [UInt8], count: Int32? = nil) -> [UInt8] {
        make(type: 0x10_0001, message: le(UInt32(bitPattern: count ?? Int32(slots.count))) + slots)
    }

    static func data(flags: UInt8, slot: UInt8, mac: [UInt8]) -> [UInt8] {
        make(type: 0x10_0002, message: [flags, slot] + mac)
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// Bitwise CRC-32 (zlib's), the slow textbook way.
    static func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

func parse(_ bytes: [UInt8]) -> (request: DSURequest, clientID: UInt32)? {
    bytes.withUnsafeBytes { DSURequest.parse($0) }
}

@Suite(.timeLimit(.minutes(5))) struct DSURequestTests {
    @Test func checksumIsZlibsCRC32() {
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBytes { DSUChecksum.crc32($0, skipping: -8) } == 0xCBF4_3926)
        #expect(ClientDatagram.referenceCRC32(check) == 0xCBF4_3926)
    }

    @Test func versionRequest() throws {
        let parsed = try #require(parse(ClientDatagram.version()))
        #expect(parsed.request == .version)
        #expect(parsed.clientID == 0xA1B2_C3D4)
    }

    @Test func portsInfoRequestKeepsTheSlotsAsSent() {
        #expect(parse(ClientDatagram.portsInfo([0, 1, 2, 3]))?.request == .portsInfo(slots: [0, 1, 2, 3]))
        #expect(parse(ClientDatagram.portsInfo([2]))?.request == .portsInfo(slots: [2]))
        #expect(parse(ClientDatagram.portsInfo([]))?.request == .portsInfo(slots: []))
    }

    @Test func portsInfoCountMustMatchTheBytesAndStayWithinFour() {
        #expect(parse(ClientDatagram.portsInfo([0, 1], count: 3)) == nil)
        #expect(parse(ClientDatagram.portsInfo([0], count: -1)) == nil)
        #expect(parse(ClientDatagram.portsInfo([0, 1, 2, 3], count: 5)) == nil)
        #expect(parse(ClientDatagram.portsInfo([0, 1, 2, 3, 0])) == nil)  // 29 bytes: oversized
    }

    @Test(arguments: [(UInt8(0), UInt8(0)), (1, 0), (1, 3), (2, 0), (3, 1)])
    func dataRequest(flags: UInt8, slot: UInt8) {
        let mac: [UInt8] = [0x02, 0x11, 0x22, 0x33, 0x44, 0x55]
        let expected = DSUSelection(flags: flags, slot: slot, mac: DSUMAC(0x02, 0x11, 0x22, 0x33, 0x44, 0x55))
        #expect(parse(ClientDatagram.data(flags: flags, slot: slot, mac: mac))?.request == .data(expected))
    }

    @Test func dataRequestWithUnknownFlagsIsIgnored() {
        #expect(parse(ClientDatagram.data(flags: 4, slot: 0, mac: [0, 0, 0, 0, 0, 0])) == nil)
    }

    @Test func malformedDatagramsAreIgnored() {
        let valid = ClientDatagram.version()
        #expect(parse(valid) != nil)
        #expect(parse(Array(valid.prefix(19))) == nil, "short")
        #expect(parse([]) == nil, "empty")
        #expect(parse(ClientDatagram.version() + [UInt8](repeating: 0, count: 9)) == nil, "oversized")
        #expect(parse(ClientDatagram.make(type: 0x10_0000, message: [], corruptCRC: true)) == nil, "wrong CRC")
        #expect(parse(ClientDatagram.make(type: 0x10_0000, message: [], magic: Array("DSUS".utf8))) == nil,
                "a server's packet")
        #expect(parse(ClientDatagram.make(type: 0x10_0000, message: [], version: 1000)) == nil, "version 1000")
        #expect(parse(ClientDatagram.make(type: 0x10_0000, message: [], lengthAdjustment: 1)) == nil, "length field")
        #expect(parse(ClientDatagram.make(type: 0x10_0003, message: [])) == nil, "unknown type")
        #expect(parse(ClientDatagram.make(type: 0x10_0000, message: [0, 0])) == nil, "version with a body")
        #expect(parse(ClientDatagram.make(type: 0x10_0002, message: [0, 0, 0])) == nil, "short data request")
    }

    /// ≥ 5,000 datagrams: random bytes of every length up to 64, and valid
    /// requests with one byte changed (re-sealed half the time, so the
    /// parser's checks after the CRC see damage too). None may crash; a
    /// damaged, unsealed request must never parse.
    @Test func fuzzedDatagramsNeverCrashAndDamageIsRefused() {
        var generator = SplitMix(seed: 0x5EED_D5C0)
        let valid = [ClientDatagram.version(), ClientDatagram.portsInfo([0, 1, 2, 3]),
                     ClientDatagram.data(flags: 2, slot: 0, mac: [2, 1, 2, 3, 4, 5])]
        var parsedRandom = 0
        for round in 0..<3_000 {
            let length = round % 65
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if parse(bytes) != nil { parsedRandom += 1 }
        }
        #expect(parsedRandom == 0)
        var refusedDamage = 0, unsealedDamage = 0
        for round in 0..<3_000 {
            var bytes = valid[round % valid.count]
            let position = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
            if round % 2 == 0, (8..<12).contains(position) == false {
                bytes.replaceSubrange(8..<12, with: [0, 0, 0, 0])
                bytes.replaceSubrange(8..<12, with: ClientDatagram.le(ClientDatagram.referenceCRC32(bytes)))
                _ = parse(bytes)
            } else {
                unsealedDamage += 1
                if parse(bytes) == nil { refusedDamage += 1 }
            }
        }
        #expect(unsealedDamage >= 1_500)
        #expect(refusedDamage == unsealedDamage)
    }
}
