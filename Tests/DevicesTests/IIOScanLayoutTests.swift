@testable import Devices
import Motion
import Testing
import Wording

@Suite(.timeLimit(.minutes(2))) struct IIOScanLayoutTests {
    static let s16in32 = ScanElementType(bigEndian: false, signed: true, bits: 16, storageBits: 32, shift: 0)
    static let s64 = ScanElementType(bigEndian: false, signed: true, bits: 64, storageBits: 64, shift: 0)

    @Test func parsesScanElementTypes() throws {
        #expect(try ScanElementType(parsing: "le:s16/32>>0\n") == Self.s16in32)
        #expect(try ScanElementType(parsing: "le:s64/64>>0") == Self.s64)
        let shifted = try ScanElementType(parsing: "be:u12/16>>4")
        #expect(shifted == ScanElementType(bigEndian: true, signed: false, bits: 12, storageBits: 16, shift: 4))
        #expect(try ScanElementType(parsing: "le:S64/64").signed)
        for bad in ["", "xx:s16/32", "le:q16/32", "le:s16", "le:s33/32", "le:s16/12", "le:s16/32>>20"] {
            #expect(throws: ScanElementTypeError.self) { try ScanElementType(parsing: bad) }
        }
        let error = ScanElementTypeError(text: "le:q16/32\n")
        #expect(error.description.contains("le:q16/32\\n"))
        #expect(error.description.contains("\(Setting.mode) poll"))
    }

    @Test func threeS16In32AndATimestampMake24ByteScans() {
        let layout = ScanLayout(
            axes: [.init(index: 0, type: Self.s16in32), .init(index: 1, type: Self.s16in32),
                   .init(index: 2, type: Self.s16in32)],
            timestamp: .init(index: 3, type: Self.s64))
        #expect(layout.scanBytes == 24)
        #expect(layout.axisOffsets == SIMD3(0, 4, 8))
        #expect(layout.timestamp?.offset == 16)
    }

    @Test func decodesSignedValuesAndTheTimestampOfEachScan() {
        let layout = ScanLayout(
            axes: [.init(index: 0, type: Self.s16in32), .init(index: 1, type: Self.s16in32),
                   .init(index: 2, type: Self.s16in32)],
            timestamp: .init(index: 3, type: Self.s64))
        // Two scans as the kernel writes them: s16 sign-extended in 32 bits, 4 padding bytes.
        var bytes: [UInt8] = []
        for (x, y, z, t) in [(Int32(523), Int32(-256), Int32(5), Int64(1_000_000_000_123)),
                             (Int32(-32768), Int32(32767), Int32(-1), Int64(-5))] {
            for value in [x, y, z, 0] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
            withUnsafeBytes(of: t.littleEndian) { bytes += $0 }
        }
        bytes.withUnsafeBytes { raw in
            let first = layout.decode(raw, at: 0)
            #expect(first.raw == SIMD3(523, -256, 5))
            #expect(first.timestamp == 1_000_000_000_123)
            let second = layout.decode(raw, at: 24)
            #expect(second.raw == SIMD3(-32768, 32767, -1))
            #expect(second.timestamp == -5)
        }
    }

    @Test func ordersByScanIndexAndAlignsEachElementToItsStorage() {
        let u8 = ScanElementType(bigEndian: false, signed: false, bits: 8, storageBits: 8, shift: 0)
        let s16 = ScanElementType(bigEndian: false, signed: true, bits: 16, storageBits: 16, shift: 0)
        // z first (index 0, 1 byte), then x, y (16-bit, aligned to 2), timestamp aligned to 8.
        let layout = ScanLayout(axes: [.init(index: 1, type: s16), .init(index: 2, type: s16),
                                       .init(index: 0, type: u8)],
                                timestamp: .init(index: 5, type: Self.s64))
        #expect(layout.axisOffsets == SIMD3(2, 4, 0))
        #expect(layout.timestamp?.offset == 8)
        #expect(layout.scanBytes == 16)
        let noTimestamp = ScanLayout(axes: [.init(index: 0, type: s16), .init(index: 1, type: s16),
                                            .init(index: 2, type: s16)], timestamp: nil)
        #expect(noTimestamp.scanBytes == 6)
        #expect(noTimestamp.timestamp == nil)
    }

    @Test func appliesEndiannessShiftAndSignOfTheType() {
        let be12 = ScanElementType(bigEndian: true, signed: true, bits: 12, storageBits: 16, shift: 4)
        // 0xFFF0 big-endian: the 12 bits above the shift are all ones → −1.
        let minusOne: [UInt8] = [0xFF, 0xF0]
        minusOne.withUnsafeBytes { #expect(be12.decode($0, at: 0) == -1) }
        // 0x7FF0 → 2047.
        let maximum: [UInt8] = [0x7F, 0xF0]
        maximum.withUnsafeBytes { #expect(be12.decode($0, at: 0) == 2047) }
        let u16 = ScanElementType(bigEndian: false, signed: false, bits: 16, storageBits: 16, shift: 0)
        let big: [UInt8] = [0xFF, 0xFF]
        big.withUnsafeBytes { #expect(u16.decode($0, at: 0) == 65535) }
    }
}
