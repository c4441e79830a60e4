/// A client's request, parsed from one datagram: anything that is not
/// exactly a valid v1001 request parses to nil and gets no reply.
public enum DSURequest: Equatable, Sendable {
    /// "Which protocol version?"
    case version
    /// "What sits in these slots?" (at most four slot numbers, as sent).
    case portsInfo(slots: [UInt8])
    /// "Stream me data" for the controllers the selection names.
    case data(DSUSelection)

    /// Parses a client's datagram. Returns nil (ignore, no reply) for a
    /// datagram that is short, longer than any request, not from a client,
    /// of another protocol version, whose length field disagrees with its
    /// size, whose CRC-32 is wrong, of an unknown type, or whose message is
    /// malformed (a slot count above four or beyond the bytes sent).
    ///
    /// - Returns: the request and the sender's id.
    public static func parse(_ datagram: UnsafeRawBufferPointer) -> (request: DSURequest, clientID: UInt32)? {
        let count = datagram.count
        guard count >= DSUProtocol.headerBytes + 4, count <= DSUProtocol.maximumRequestBytes else { return nil }
        let magic = DSUProtocol.Magic.client.bytes
        guard datagram[0] == magic.0, datagram[1] == magic.1, datagram[2] == magic.2, datagram[3] == magic.3,
              datagram.loadLittleEndian(UInt16.self, at: 4) == DSUProtocol.version,
              Int(datagram.loadLittleEndian(UInt16.self, at: 6)) == count - DSUProtocol.headerBytes,
              datagram.loadLittleEndian(UInt32.self, at: 8) == DSUChecksum.crc32(datagram),
              let type = DSUProtocol.MessageType(rawValue: datagram.loadLittleEndian(UInt32.self, at: 16))
        else { return nil }
        let clientID = datagram.loadLittleEndian(UInt32.self, at: 12)
        let message = count - 20
        switch type {
        case .version:
            guard message == 0 else { return nil }
            return (.version, clientID)
        case .portsInfo:
            guard message >= 4 else { return nil }
            let slotCount = datagram.loadLittleEndian(Int32.self, at: 20)
            guard slotCount >= 0, slotCount <= Int32(DSUProtocol.slotCount), message == 4 + Int(slotCount) else {
                return nil
            }
            return (.portsInfo(slots: (0..<Int(slotCount)).map { datagram[24 + $0] }), clientID)
        case .data:
            guard message == 8 else { return nil }
            let flags = datagram[20]
            guard flags <= 3 else { return nil }
            let mac = DSUMAC(datagram[22], datagram[23], datagram[24], datagram[25], datagram[26], datagram[27])
            return (.data(DSUSelection(flags: flags, slot: datagram[21], mac: mac)), clientID)
        }
    }
}

/// Which controllers a data request asks for: flag 0 all of them, bit 0 the
/// one in a slot, bit 1 the one with a MAC address.
public struct DSUSelection: Equatable, Sendable {
    public var flags: UInt8
    public var slot: UInt8
    public var mac: DSUMAC

    public init(flags: UInt8, slot: UInt8, mac: DSUMAC) {
        self.flags = flags
        self.slot = slot
        self.mac = mac
    }

    /// Every controller.
    public static let all = DSUSelection(flags: 0, slot: 0, mac: .zero)

    /// Whether `controller` is among those asked for.
    public func includes(_ controller: DSUController) -> Bool {
        if flags == 0 { return true }
        return (flags & 1 != 0 && slot == controller.slot) || (flags & 2 != 0 && mac == controller.mac)
    }
}

extension UnsafeRawBufferPointer {
    func loadLittleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
