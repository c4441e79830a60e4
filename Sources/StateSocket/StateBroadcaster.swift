import Knob
import Logging
import NIOCore
import Synchronization

/// Fans the JSON Lines state stream out to every client of the state socket.
///
/// The producer (the capture thread) writes each state itself: `emit`
/// encodes it once and sends it to every client's socket with one
/// non-blocking `send(2)` each, through a second descriptor of the socket
/// that the broadcaster owns (`ClientLink`). No thread is woken per state
/// but the clients. SwiftNIO owns each connection's lifetime: it reads and
/// drops what clients send, sees them hang up, writes the refusal, and waits
/// for a full socket to drain.
///
/// A client whose socket is full is handed to NIO: the rest of the line the
/// kernel did not take is written by its channel (so no line is ever torn),
/// and until that write completes newer states replace one another in a
/// single queued line, which NIO writes next. A client that stops reading
/// therefore costs at most the kernel's socket buffer plus two lines, and
/// later receives the latest state. A new client receives the current state
/// at once.
///
/// Everything mutable is in `fanout`, under one mutex: the producer holds it
/// for one encode and one `send(2)` per client, the event loop for admitting
/// and removing clients.
final class StateBroadcaster: @unchecked Sendable {
    // Safe to share: `fanout` is a Mutex, `clientTotal` atomic, the rest
    // immutable.

    let eventLoop: any EventLoop
    private let limits: UnixSocketServer.Limits
    private let logger: Logger
    private let onClientCountChange: @Sendable (Int) -> Void
    private let fanout = Mutex(Fanout())
    private let clientTotal = Atomic<Int>(0)
    private let refusal: ByteBuffer
    /// Clients that shut down their writing side and were kept as readers.
    private let halfClosed = Atomic<Int>(0)

    private struct Fanout {
        var clients: [ClientLink] = []
        /// The newest state's line, and whether a new client gets it.
        var line: [UInt8] = []
        var hasLine = false
        /// The lines of the batch being sent (`emit(_ states:)`).
        var batchLines: [UInt8] = []
        var stopping = false
        var refusedWhileFull = 0
        var evictedWhileFull = 0
    }

    /// What `admit` decided for a new connection.
    enum Admission {
        case admitted
        /// At the limit: tell the client so, then close.
        case refused(ByteBuffer)
        /// The server is stopping, or the client hung up before its first
        /// line: close.
        case closing
    }

    init(eventLoop: any EventLoop, limits: UnixSocketServer.Limits, logger: Logger,
         onClientCountChange: @escaping @Sendable (Int) -> Void) {
        self.eventLoop = eventLoop
        self.limits = limits
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        self.refusal = ByteBuffer(string: "{\"error\":\"too many clients (\(limits.maxClients)); try again later\"}\n")
    }

    /// The number of connected clients.
    var clientCount: Int { clientTotal.load(ordering: .relaxed) }

    /// Clients whose lines wait on NIO (a hand-off not yet written).
    /// A client shut down its writing side (on the event loop); it stays a reader.
    func noteHalfClosed() { halfClosed.add(1, ordering: .relaxed) }

    /// How many clients have half-closed so far (for tests).
    var clientsHalfClosed: Int { halfClosed.load(ordering: .relaxed) }

    var clientsWaitingOnHandOff: Int {
        fanout.withLock { $0.clients.count { $0.stalledSince != nil } }
    }

    /// Sends one state's record (`EncodedState.line`) to every client now,
    /// on the calling thread; never blocks on clients. A no-op once `stop`
    /// has begun.
    func send(_ line: [UInt8]) {
        offerToEveryClient { fanout in
            fanout.line = line
            return false
        }
    }

    /// Sends one wake-up's batch to every client in one write: `lines`, the
    /// records in order, offered together; `last`, the last of them, is the
    /// current state for clients that connect later. A no-op once `stop`
    /// has begun.
    func send(batch lines: [UInt8], last: [UInt8]) {
        offerToEveryClient { fanout in
            fanout.batchLines = lines
            fanout.line = last
            return true
        }
    }

    /// Under the lock: `take` sets the current state's line (and returns
    /// whether it also filled `batchLines`, which are then offered instead),
    /// and every client is offered the bytes; outside it, the hand-offs.
    private func offerToEveryClient(_ take: (inout Fanout) -> Bool) {
        var handOffs: [HandOff] = []
        var failed: [any Channel] = []
        fanout.withLock { fanout in
            guard !fanout.stopping else { return }
            let batched = take(&fanout)
            fanout.hasLine = true
            for index in fanout.clients.indices {
                deliver(fanout.clients[index].offer(batched ? fanout.batchLines : fanout.line), of: fanout.clients[index],
                        handOffs: &handOffs, failed: &failed)
            }
        }
        finish(handOffs, failed)
    }

    /// Drops the current state, so that clients connecting from now on wait
    /// for the next one instead of getting a stale state (the device was
    /// released while no client reads it).
    func forgetCurrentState() {
        fanout.withLock { $0.hasLine = false }
    }

    /// Closes every client; emits after this are dropped. What was emitted
    /// before was sent already, except what full sockets had not taken.
    func stop() -> EventLoopFuture<Void> {
        let links = fanout.withLock { fanout -> [ClientLink] in
            fanout.stopping = true
            defer { fanout.clients.removeAll() }
            return fanout.clients
        }
        let closing = links.map { link -> EventLoopFuture<Void> in
            var link = link
            link.closeDescriptor()
            return link.channel.close()
        }
        return eventLoop.flatSubmit {
            self.countChanged(to: 0)
            self.summarizeRefusals()
            return EventLoopFuture.andAllComplete(closing, on: self.eventLoop)
        }
    }

    // MARK: On the event loop

    /// A client connected (`descriptor` is the broadcaster's own copy of its
    /// socket, which it closes): admits it, sending the current state, or
    /// at the limit makes room by dropping the client stalled longest, or
    /// refuses it.
    ///
    /// The limit bounds what clients can make tiltd hold (descriptors, and
    /// per client at most a socket buffer and two lines); a client that
    /// stopped reading holds its slot only until someone else needs it, so
    /// idle connections cannot lock real readers out.
    func admit(_ channel: any Channel, descriptor: Int32) -> Admission {
        var link = ClientLink(channel: channel, descriptor: descriptor)
        var handOffs: [HandOff] = []
        var failed: [any Channel] = []
        var evicted: (any Channel)?
        var count = 0
        let admission = fanout.withLock { fanout -> Admission in
            guard !fanout.stopping else { return .closing }
            if fanout.clients.count >= limits.maxClients {
                guard let victim = longestStalled(in: fanout.clients) else {
                    fanout.refusedWhileFull += 1
                    if fanout.refusedWhileFull == 1 {
                        logger.warning("state socket: \(limits.maxClients) clients connected, refusing more until one leaves")
                    }
                    return .refused(refusal)
                }
                fanout.evictedWhileFull += 1
                if fanout.evictedWhileFull == 1 {
                    logger.notice("state socket: \(limits.maxClients) clients connected: dropping clients that stopped reading to make room")
                }
                fanout.clients[victim].closeDescriptor()
                evicted = fanout.clients.remove(at: victim).channel
            }
            if fanout.hasLine {
                deliver(link.offer(fanout.line), of: link, handOffs: &handOffs, failed: &failed)
            }
            // A peer that hung up before its first line is never kept: it
            // would hold a slot that nothing frees (its close is below).
            guard failed.isEmpty else { return .closing }
            fanout.clients.append(link)
            count = fanout.clients.count
            return .admitted
        }
        if case .admitted = admission {
            evicted?.close(promise: nil)
            finish(handOffs, failed)
            countChanged(to: count)
            logger.debug("state socket: client connected (\(count) now)")
        } else {
            link.closeDescriptor()
        }
        return admission
    }

    /// A client hung up or was closed.
    func remove(_ channel: any Channel) {
        let (removed, count) = fanout.withLock { fanout -> (Bool, Int) in
            guard let index = fanout.clients.firstIndex(where: { $0.channel === channel }) else {
                return (false, fanout.clients.count)
            }
            fanout.clients[index].closeDescriptor()
            fanout.clients.remove(at: index)
            return (true, fanout.clients.count)
        }
        guard removed else { return }
        logger.debug("state socket: client left (\(count) now)")
        countChanged(to: count)
        if count < limits.maxClients { summarizeRefusals() }
    }

    // MARK: Hand-offs to NIO

    /// Bytes a full socket did not take, for its channel to write.
    private struct HandOff {
        let channel: any Channel
        let bytes: ByteBuffer
    }

    private func deliver(_ delivery: ClientLink.Delivery, of link: ClientLink,
                         handOffs: inout [HandOff], failed: inout [any Channel]) {
        switch delivery {
        case .sent: break
        case .handOff(let bytes): handOffs.append(HandOff(channel: link.channel, bytes: bytes))
        case .failed: failed.append(link.channel)
        }
    }

    /// Outside the lock: starts the hand-off writes and closes the clients
    /// whose sockets failed (NIO then reports them gone, and `remove` runs).
    private func finish(_ handOffs: [HandOff], _ failed: [any Channel]) {
        for handOff in handOffs { write(handOff) }
        for channel in failed { channel.close(promise: nil) }
    }

    private func write(_ handOff: HandOff) {
        let channel = handOff.channel
        channel.writeAndFlush(handOff.bytes).whenSuccess { [self] in
            let next = fanout.withLock { fanout -> ByteBuffer? in
                guard let index = fanout.clients.firstIndex(where: { $0.channel === channel }) else { return nil }
                return fanout.clients[index].handOffWritten()
            }
            if let next { write(HandOff(channel: channel, bytes: next)) }
        }
    }

    // MARK: Bookkeeping

    private func countChanged(to count: Int) {
        clientTotal.store(count, ordering: .relaxed)
        onClientCountChange(count)
    }

    /// The index of the client whose hand-off has waited longest, if longer than the grace.
    private func longestStalled(in clients: [ClientLink]) -> Int? {
        let cutoff = NIODeadline.now() - .nanoseconds(Int64(limits.stalledGraceSeconds * 1e9))
        return clients.indices.filter { (clients[$0].stalledSince ?? .distantFuture) <= cutoff }
            .min { clients[$0].stalledSince! < clients[$1].stalledSince! }
    }

    /// Ends a burst of refusals with one line saying how many there were.
    private func summarizeRefusals() {
        let (refused, evicted) = fanout.withLock { fanout -> (Int, Int) in
            defer {
                fanout.refusedWhileFull = 0
                fanout.evictedWhileFull = 0
            }
            return (fanout.refusedWhileFull, fanout.evictedWhileFull)
        }
        if refused > 1 || evicted > 1 {
            logger.notice("state socket: while full, refused \(refused) and dropped \(evicted) stalled client(s)")
        }
    }
}
