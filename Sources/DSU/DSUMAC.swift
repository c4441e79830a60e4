/// A controller's 6-byte MAC address as DSU clients key their per-controller
/// settings on it.
public struct DSUMAC: Hashable, Sendable, CustomStringConvertible {
    public var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8, _ b5: UInt8) {
        bytes = (b0, b1, b2, b3, b4, b5)
    }

    /// No address (an empty slot's).
    public static let zero = DSUMAC(0, 0, 0, 0, 0, 0)

    /// A stable address for one device on one machine: the same machine id
    /// and device key always give the same address, and a different device
    /// or machine almost surely another. FNV-1a (64-bit) of both, folded to
    /// six bytes, marked locally administered and unicast (so it can never
    /// be all zeros, nor clash with a vendor's address).
    ///
    /// - Parameters:
    ///   - machineID: /etc/machine-id's contents (trimmed).
    ///   - deviceKey: what names the device across runs (its IIO name and
    ///     location, or a pad's USB id and unique id).
    public init(machineID: String, deviceKey: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in machineID.utf8 + [0] + deviceKey.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let folded = hash ^ (hash >> 48)
        self.init(UInt8(truncatingIfNeeded: folded >> 40) & 0xFE | 0x02,
                  UInt8(truncatingIfNeeded: folded >> 32), UInt8(truncatingIfNeeded: folded >> 24),
                  UInt8(truncatingIfNeeded: folded >> 16), UInt8(truncatingIfNeeded: folded >> 8),
                  UInt8(truncatingIfNeeded: folded))
    }

    public static func == (lhs: DSUMAC, rhs: DSUMAC) -> Bool {
        lhs.array == rhs.array
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(array)
    }

    /// The six bytes in order.
    public var array: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5] }

    /// `02:1a:…`, lower-case hex.
    public var description: String {
        array.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
