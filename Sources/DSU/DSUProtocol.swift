/// The cemuhook "DSU" protocol, version 1001, as emulators speak it over UDP
/// (docs/dsu.md). Every packet is little-endian: a 16-byte header (magic,
/// version, the length of what follows the header, a CRC-32 of the whole
/// packet computed with its own field zeroed, the sender's id), then a
/// 32-bit message type and the message.
public enum DSUProtocol {
    /// The only protocol version clients and servers speak.
    public static let version: UInt16 = 1001
    /// The port emulators try first.
    public static let defaultPort: UInt16 = 26760
    /// Bytes before the message type.
    public static let headerBytes = 16
    /// Slots a server offers (a DualShock 4 game's four controllers).
    public static let slotCount = 4
    /// How long a client keeps receiving data after its last data request.
    public static let subscriptionSeconds = 5

    /// A packet's first four bytes: who sent it.
    public enum Magic: Sendable {
        case client, server

        var bytes: (UInt8, UInt8, UInt8, UInt8) {
            switch self {
            case .client: (0x44, 0x53, 0x55, 0x43)  // "DSUC"
            case .server: (0x44, 0x53, 0x55, 0x53)  // "DSUS"
            }
        }
    }

    /// The message types, at byte 16 of every packet.
    public enum MessageType: UInt32, Sendable {
        /// The server's protocol version (request: nothing; answer: u16).
        case version = 0x10_0000
        /// What sits in the slots asked for (one 32-byte answer per slot).
        case portsInfo = 0x10_0001
        /// Motion and buttons, streamed to the requester for 5 s.
        case data = 0x10_0002
    }

    /// Sizes of the server's packets, header included.
    public enum AnswerBytes {
        public static let version = 22
        public static let portInfo = 32
        public static let data = 100
    }

    /// The largest valid request: ports info for all four slots, or a data
    /// request (both 28 bytes). Anything longer is ignored unread.
    public static let maximumRequestBytes = 28
}
