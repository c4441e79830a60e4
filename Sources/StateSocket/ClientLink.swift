import NIOCore
import Platform

/// One reader of the state socket as the producer sees it: the
/// broadcaster's own descriptor of the client's socket, written to directly,
/// and what waits while the socket is full. Lives in `StateBroadcaster`'s
/// mutex.
///
/// While the socket takes every line whole, each line is one `send(2)` on
/// the producer's thread. When the kernel takes only part of a line (or none
/// of it), the rest is handed to the client's NIO channel, which writes it
/// when the socket drains; until NIO has written it, lines are not sent but
/// kept, only the newest (`queued`), and handed over next. So bytes reach the
/// socket in order and whole lines only, and what waits is at most one line
/// in NIO and one here.
struct ClientLink {
    /// The client's NIO channel: reads, hang-ups, hand-off writes, close.
    let channel: any Channel
    /// The broadcaster's copy of the socket (−1 once closed).
    private(set) var descriptor: Int32
    /// True from a hand-off until NIO has written it and nothing is queued.
    private var handedOff = false
    /// The newest line while handed off (valid when `hasQueued`).
    private var queued: [UInt8] = []
    private var hasQueued = false
    /// When the hand-off NIO is writing began (nil while lines go straight
    /// out): a client stalled longer than the grace can be dropped for a new one.
    private(set) var stalledSince: NIODeadline?

    init(channel: any Channel, descriptor: Int32) {
        self.channel = channel
        self.descriptor = descriptor
    }

    /// What offering a line came to.
    enum Delivery {
        /// Sent whole, queued behind a hand-off, or dropped (closed link).
        case sent
        /// The socket is full: NIO must write these bytes (the rest of the line).
        case handOff(ByteBuffer)
        /// The socket failed (the client is gone): close the channel.
        case failed
    }

    /// Sends `line` (whole JSON lines: one state, or a batch's) now, or
    /// keeps it while a hand-off is pending.
    mutating func offer(_ line: [UInt8]) -> Delivery {
        guard descriptor >= 0 else { return .sent }
        if handedOff {
            queued.removeAll(keepingCapacity: true)
            queued.append(contentsOf: line)
            hasQueued = true
            return .sent
        }
        switch line.withUnsafeBytes({ Posix.sendNow(descriptor, $0) }) {
        case .sent(let count) where count == line.count:
            return .sent
        case .sent(let count):
            handedOff = true
            stalledSince = .now()
            return .handOff(ByteBuffer(bytes: line[count...]))
        case .failed:
            closeDescriptor()
            return .failed
        }
    }

    /// NIO has written the last hand-off: returns the queued line for it to
    /// write next, or nil when lines may go straight out again.
    mutating func handOffWritten() -> ByteBuffer? {
        guard hasQueued, descriptor >= 0 else {
            handedOff = false
            stalledSince = nil
            hasQueued = false
            return nil
        }
        hasQueued = false
        stalledSince = .now()
        return ByteBuffer(bytes: queued)
    }

    /// Closes the broadcaster's descriptor (the channel keeps its own); idempotent.
    mutating func closeDescriptor() {
        guard descriptor >= 0 else { return }
        Posix.close(descriptor)
        descriptor = -1
    }
}
