import Knob
import Logging
import NIOCore
import Synchronization

/// Fans the JSON Lines state stream out to every client of the state socket,
/// on one SwiftNIO event loop.
///
/// The producer's `emit` copies the state into a ring under a mutex and, at
/// most once per drain, schedules a drain on the event loop: O(1), no
/// allocation beyond that task, never blocks on clients. The drain encodes
/// the new states once into one buffer, which every client shares (see
/// `BroadcastClient` for the per-client bound and coalescing). A new client
/// receives the current state at once.
///
/// Every client lives on the same event loop as the listening channel, so
/// the client list needs no lock; sockets with thousands of states a second
/// and dozens of clients are far below what one loop handles.
final class StateBroadcaster: @unchecked Sendable {
    // Safe to share: `inbox` is guarded by its mutex and `clientTotal` is
    // atomic; everything else is touched only on `eventLoop`.

    let eventLoop: any EventLoop
    private let limits: UnixSocketServer.Limits
    private let logger: Logger
    private let onClientCountChange: @Sendable (Int) -> Void
    private let inbox: Mutex<BroadcastInbox>
    private let clientTotal = Atomic<Int>(0)

    private var clients: [BroadcastClient] = []
    private var lastLine: ByteBuffer?
    /// The inbox sequence number up to which states were drained.
    private var drainedSequence: UInt64 = 0
    private var refusedWhileFull = 0
    private var evictedWhileFull = 0
    private let allocator = ByteBufferAllocator()
    /// The drain's scratch space, kept between drains so that a drain per
    /// state (the usual case live: one state every 5–10 ms) allocates only
    /// the batch it hands to the clients.
    private var drainStates: [KnobState] = []
    private var drainBytes: [UInt8] = []
    private let refusal: ByteBuffer

    init(eventLoop: any EventLoop, limits: UnixSocketServer.Limits, logger: Logger,
         onClientCountChange: @escaping @Sendable (Int) -> Void) {
        self.eventLoop = eventLoop
        self.limits = limits
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        self.inbox = Mutex(BroadcastInbox(capacity: limits.inboxCapacity))
        self.refusal = ByteBuffer(string: "{\"error\":\"too many clients (\(limits.maxClients)); try again later\"}\n")
    }

    /// The number of connected clients.
    var clientCount: Int { clientTotal.load(ordering: .relaxed) }

    /// Hands `state` to the event loop. O(1); never blocks on clients.
    /// A no-op once `stop` has begun.
    func emit(_ state: KnobState) {
        let schedule = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            return inbox.push(state)
        }
        if schedule { eventLoop.execute { self.drain() } }
    }

    /// Drops the current state, so that clients connecting from now on wait
    /// for the next one instead of getting a stale state (the device was
    /// released by `--on-demand`).
    func forgetCurrentState() {
        let schedule = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.forgetCurrent = true
            if inbox.wakePending { return false }
            inbox.wakePending = true
            return true
        }
        if schedule { eventLoop.execute { self.drain() } }
    }

    /// Sends what was emitted before the call, then closes every client and
    /// `listener`. Emits after this are dropped.
    func stop(listener: any Channel) -> EventLoopFuture<Void> {
        eventLoop.flatSubmit {
            self.inbox.withLock { $0.stopping = true }
            self.drain()
            self.summarizeRefusals()
            let closing = [listener.close()] + self.clients.compactMap { $0.close() }
            return EventLoopFuture.andAllComplete(closing, on: self.eventLoop)
        }
    }

    // MARK: On the event loop

    private func drain() {
        var sequence = drainedSequence
        drainStates.removeAll(keepingCapacity: true)
        let forget = inbox.withLock { inbox -> Bool in
            inbox.take(after: &sequence, into: &drainStates)
            defer { inbox.forgetCurrent = false }
            return inbox.forgetCurrent
        }
        drainedSequence = sequence
        if !drainStates.isEmpty {
            drainBytes.removeAll(keepingCapacity: true)
            var lastStart = 0
            for state in drainStates {
                lastStart = drainBytes.count
                state.appendJSONLine(to: &drainBytes)
            }
            var batch = allocator.buffer(capacity: drainBytes.count)
            batch.writeBytes(drainBytes)
            let newest = batch.getSlice(at: batch.readerIndex + lastStart, length: drainBytes.count - lastStart)!
            lastLine = newest
            for client in clients { client.offer(batch, newest: newest) }
        }
        // After the batch: the device was released after those states.
        if forget { lastLine = nil }
    }

    /// A client connected: admits it (sending the current state), or, at the
    /// limit, makes room by dropping the client stalled longest, or refuses
    /// it with one line.
    ///
    /// The limit bounds what clients can make tiltd hold (descriptors, and
    /// per client at most about a socket buffer); a client that stopped
    /// reading holds its slot only until someone else needs it, so idle
    /// connections cannot lock real readers out.
    ///
    /// - Returns: true when admitted.
    func admit(_ client: BroadcastClient) -> Bool {
        if clients.count >= limits.maxClients {
            guard let victim = longestStalled() else {
                refusedWhileFull += 1
                if refusedWhileFull == 1 {
                    logger.warning("state socket: \(limits.maxClients) clients connected, refusing more until one leaves")
                }
                client.refuse(with: refusal)
                return false
            }
            evictedWhileFull += 1
            if evictedWhileFull == 1 {
                logger.notice("state socket: \(limits.maxClients) clients connected: dropping clients that stopped reading to make room")
            }
            remove(victim, notify: false)
            _ = victim.close()
        }
        clients.append(client)
        if let lastLine { client.offer(lastLine, newest: lastLine) }
        countChanged()
        logger.debug("state socket: client connected (\(clients.count) now)")
        return true
    }

    /// A client hung up or was closed.
    func remove(_ client: BroadcastClient) {
        remove(client, notify: true)
    }

    private func remove(_ client: BroadcastClient, notify: Bool) {
        guard let index = clients.firstIndex(where: { $0 === client }) else { return }
        clients.remove(at: index)
        logger.debug("state socket: client left (\(clients.count) now)")
        if notify {
            countChanged()
            if clients.count < limits.maxClients { summarizeRefusals() }
        }
    }

    private func countChanged() {
        clientTotal.store(clients.count, ordering: .relaxed)
        onClientCountChange(clients.count)
    }

    /// The client whose queue has been full longest, if longer than the grace.
    private func longestStalled() -> BroadcastClient? {
        let cutoff = NIODeadline.now() - .nanoseconds(Int64(limits.stalledGraceSeconds * 1e9))
        return clients.filter { ($0.stalledSince ?? .distantFuture) <= cutoff }
            .min { $0.stalledSince! < $1.stalledSince! }
    }

    /// Ends a burst of refusals with one line saying how many there were.
    private func summarizeRefusals() {
        if refusedWhileFull > 1 || evictedWhileFull > 1 {
            logger.notice("state socket: while full, refused \(refusedWhileFull) and dropped \(evictedWhileFull) stalled client(s)")
        }
        refusedWhileFull = 0
        evictedWhileFull = 0
    }
}
