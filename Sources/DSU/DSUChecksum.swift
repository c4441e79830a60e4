/// CRC-32 as zlib computes it (IEEE 802.3, reflected polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF): the checksum of every DSU packet.
enum DSUChecksum {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes`, treating the four bytes at `skipping` (the
    /// packet's own checksum field) as zeros.
    static func crc32(_ bytes: UnsafeRawBufferPointer, skipping field: Int = 8) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for index in 0..<bytes.count {
                let byte = field <= index && index < field + 4 ? 0 : bytes[index]
                crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
            }
        }
        return ~crc
    }
}
