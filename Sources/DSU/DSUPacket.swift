/// Writes the server's packets. A data packet is laid out once per sample
/// (`DSUDataPacket`) and stamped per client with its packet number and
/// checksum, so each extra client costs one CRC over 100 bytes.
public enum DSUPacket {
    /// The answer to a version request (22 bytes).
    public static func version(serverID: UInt32) -> [UInt8] {
        var packet = header(bytes: DSUProtocol.AnswerBytes.version, serverID: serverID, type: .version)
        packet.storeLittleEndian(DSUProtocol.version, at: 20)
        seal(&packet)
        return packet
    }

    /// The answer about one slot (32 bytes): the controller block, then a zero.
    public static func portInfo(_ controller: DSUController, serverID: UInt32) -> [UInt8] {
        var packet = header(bytes: DSUProtocol.AnswerBytes.portInfo, serverID: serverID, type: .portsInfo)
        packet.store(controller, at: 20)
        seal(&packet)
        return packet
    }

    static func header(bytes: Int, serverID: UInt32, type: DSUProtocol.MessageType) -> [UInt8] {
        var packet = [UInt8](repeating: 0, count: bytes)
        let magic = DSUProtocol.Magic.server.bytes
        (packet[0], packet[1], packet[2], packet[3]) = magic
        packet.storeLittleEndian(DSUProtocol.version, at: 4)
        packet.storeLittleEndian(UInt16(bytes - DSUProtocol.headerBytes), at: 6)
        packet.storeLittleEndian(serverID, at: 12)
        packet.storeLittleEndian(type.rawValue, at: 16)
        return packet
    }

    /// Writes the CRC-32 of the finished packet into bytes 8–11.
    static func seal(_ packet: inout [UInt8]) {
        let crc = packet.withUnsafeBytes { DSUChecksum.crc32($0) }
        packet.storeLittleEndian(crc, at: 8)
    }
}

/// One sample's motion as a DSU client reads it, already in the client's
/// axes (`DSUAxes`) and units.
public struct DSUMotion: Equatable, Sendable {
    /// The sample's own time, µs.
    public var timestampMicroseconds: UInt64
    /// Acceleration including gravity, in g (the protocol text says m/s²;
    /// working servers and clients use g).
    public var accelerationG: SIMD3<Float>
    /// Rotation rate as pitch, yaw and roll, deg/s, bias-corrected.
    public var rotationDegreesPerSecond: SIMD3<Float>

    public init(timestampMicroseconds: UInt64, accelerationG: SIMD3<Float>, rotationDegreesPerSecond: SIMD3<Float>) {
        self.timestampMicroseconds = timestampMicroseconds
        self.accelerationG = accelerationG
        self.rotationDegreesPerSecond = rotationDegreesPerSecond
    }
}

/// A data packet (100 bytes) for one sample: controller block, neutral
/// buttons and sticks, no touches, the motion. `stamp` fills in one
/// client's packet number and the checksum; `update` rewrites the packet for
/// the next sample in the same storage, so a server allocates none per sample.
public struct DSUDataPacket: Sendable {
    public private(set) var bytes: [UInt8]

    public init(controller: DSUController, motion: DSUMotion, serverID: UInt32) {
        bytes = DSUPacket.header(bytes: DSUProtocol.AnswerBytes.data, serverID: serverID, type: .data)
        for stick in 40...43 { bytes[stick] = 128 }
        update(controller: controller, motion: motion)
    }

    /// An empty placeholder (no bytes, no storage) to swap with a packet in use.
    init() { bytes = [] }

    /// Makes this the packet of another sample: the controller block and the
    /// motion change, the rest (header, buttons, sticks) stays.
    public mutating func update(controller: DSUController, motion: DSUMotion) {
        bytes.store(controller, at: 20)
        bytes[31] = controller.state == .connected ? 1 : 0
        bytes.storeLittleEndian(motion.timestampMicroseconds, at: 68)
        for axis in 0..<3 {
            bytes.storeLittleEndian(motion.accelerationG[axis].bitPattern, at: 76 + 4 * axis)
            bytes.storeLittleEndian(motion.rotationDegreesPerSecond[axis].bitPattern, at: 88 + 4 * axis)
        }
    }

    /// Sets the client's packet number and seals the packet.
    public mutating func stamp(packetNumber: UInt32) {
        bytes.storeLittleEndian(packetNumber, at: 32)
        DSUPacket.seal(&bytes)
    }
}

extension Array where Element == UInt8 {
    mutating func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self) }
    }

    mutating func store(_ controller: DSUController, at offset: Int) {
        self[offset] = controller.slot
        self[offset + 1] = controller.state.rawValue
        self[offset + 2] = controller.model.rawValue
        self[offset + 3] = controller.connection.rawValue
        for (index, byte) in controller.mac.array.enumerated() { self[offset + 4 + index] = byte }
        self[offset + 10] = controller.battery.rawValue
    }
}
