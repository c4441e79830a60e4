import Motion
/// The storage format of one scan element, as in `scan_elements/*_type`.
///
/// IIO ABI format: `[be|le]:[s|u]bits/storagebits[>>shift]`, e.g.
/// `le:s16/32>>0`: a signed 16-bit value stored little-endian in 32 bits.
public struct ScanElementType: Sendable, Equatable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    /// Significant bits.
    public var bits: Int
    /// Bits the element occupies in the scan (a multiple of 8).
    public var storageBits: Int
    /// Right shift applied before masking to `bits`.
    public var shift: Int

    public init(bigEndian: Bool, signed: Bool, bits: Int, storageBits: Int, shift: Int) {
        self.bigEndian = bigEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
    }

    /// Parses the sysfs text, e.g. "le:s16/32>>0\n".
    ///
    /// - Throws: `ScanElementTypeError` quoting the text.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: " \n\t")
        let fail = ScanElementTypeError(text: text)
        let parts = trimmed.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { throw fail }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" || sign == "S" || sign == "U" else { throw fail }
        rest = rest.dropFirst()
        let shiftParts = rest.split(separator: ">", omittingEmptySubsequences: true)
        guard let sizes = shiftParts.first else { throw fail }
        let sizeParts = sizes.split(separator: "/")
        guard sizeParts.count == 2, let bits = Int(sizeParts[0]), let storage = Int(sizeParts[1]),
              bits > 0, storage % 8 == 0, bits <= storage, storage <= 64 else { throw fail }
        var shift = 0
        if shiftParts.count == 2 {
            guard let value = Int(shiftParts[1]), value >= 0, value + bits <= storage else { throw fail }
            shift = value
        } else if shiftParts.count > 2 { throw fail }
        self.init(bigEndian: parts[0] == "be", signed: sign == "s" || sign == "S",
                  bits: bits, storageBits: storage, shift: shift)
    }

    /// Bytes the element occupies, which is also its alignment in a scan.
    public var storageBytes: Int { storageBits / 8 }

    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)>>\(shift)"
    }

    /// Decodes the element stored at `bytes[offset...]`.
    @inline(__always)
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var word: UInt64 = 0
        let count = storageBytes
        if bigEndian {
            for index in 0..<count { word = word << 8 | UInt64(bytes[offset + index]) }
        } else {
            for index in stride(from: count - 1, through: 0, by: -1) { word = word << 8 | UInt64(bytes[offset + index]) }
        }
        word >>= UInt64(shift)
        if bits < 64 { word &= (UInt64(1) << UInt64(bits)) - 1 }
        if signed && bits < 64 && word & (UInt64(1) << UInt64(bits - 1)) != 0 {
            word |= ~((UInt64(1) << UInt64(bits)) - 1)
        }
        return Int64(bitPattern: word)
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> Substring {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
