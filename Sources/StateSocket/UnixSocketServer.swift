import Devices
import Glibc
import Knob
import Logging
import NIOCore
import NIOPosix
import Platform
import SamplePath
import ServiceLifecycle
import Synchronization

/// Serves the JSON Lines state stream on a Unix stream socket
/// (`unix:PATH`): connections accepted on a thread of their own
/// (blocked in accept(2)),
/// each client's lifetime on SwiftNIO's shared event-loop group, and the
/// states written by the producer (`StateBroadcaster`).
///
/// The socket file is claimed by `UnixSocketFile` (mode 0660 from the
/// moment it exists, a lock that keeps a second tiltd from stealing it, a
/// stale file replaced) and removed by `close()`, which the lifecycle calls
/// on SIGINT, SIGTERM and SIGHUP, and at the process's end. Fan-out, coalescing and
/// the client limit are `StateBroadcaster`'s. See docs/streaming.md.
public final class UnixSocketServer: StateSink, Service, @unchecked Sendable {
    // Safe to share: stored properties are immutable after init but for
    // `batch`, which only the producer touches (`emit`, `endBatch`, `flush`
    // run on its thread), `closed` is atomic, and the broadcaster is itself
    // Sendable.

    /// Limits that keep the server's memory bounded.
    public struct Limits: Sendable {
        /// Connections beyond this are told so in one line and closed
        /// (unless a client that stopped reading can make room).
        public var maxClients = 64
        /// SO_SNDBUF for each client socket in bytes: how much the kernel
        /// queues for a client that stopped reading (about 80 separate lines,
        /// 0.4 s at 200 Hz: a reader's scheduling hiccup loses nothing).
        public var sendBufferBytes: Int32 = 64 * 1024
        /// A client whose queue has been full this long counts as stalled:
        /// at the limit, it is dropped to make room for a new client.
        public var stalledGraceSeconds = 1.0

        public init() {}
    }

    /// The socket's filesystem path.
    public let path: String
    private let file: UnixSocketFile
    private let broadcaster: StateBroadcaster
    /// Opened when the thread blocked in accept(2) has returned (and closed the socket).
    private let acceptor: Latch
    private let logger: Logger
    private let closed = Atomic<Bool>(false)
    private let finished: EventLoopPromise<Void>
    /// The states of the current batch of a paced capture, held until
    /// `endBatch`; nil until the producer has ended a batch (states then
    /// go out one by one, as they come).
    private var batch: [UInt8]?
    /// The last record in `batch`.
    private var batchLast: [UInt8] = []

    /// The listen backlog: connections the kernel queues before tiltd accepts them.
    private static let backlog: Int32 = 64

    /// Claims `path` and starts serving.
    ///
    /// - Parameters:
    ///   - path: where to create the socket.
    ///   - group: the group to give the socket file (nil: the process's).
    ///   - limits: client limits.
    ///   - logger: the ready line, refusals, stale files.
    ///   - onClientCountChange: called with the number of clients whenever it
    ///     changes, on the event loop (drives the on-demand switch; must not block).
    /// - Throws: `UnixSocketError` when the path is served by a live process,
    ///   is not a socket, is too long, or a system call fails.
    public init(path: String, group: gid_t? = nil, limits: Limits = Limits(), logger: Logger = TiltdLog.logger,
                onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        let file = try UnixSocketFile.claim(path: path, group: group, backlog: Self.backlog, logger: logger)
        // One loop for all the clients; the web server uses the same singleton group.
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let broadcaster = StateBroadcaster(eventLoop: loop, limits: limits, logger: logger,
                                           onClientCountChange: onClientCountChange)
        self.path = path
        self.file = file
        self.broadcaster = broadcaster
        self.logger = logger
        self.finished = loop.makePromise(of: Void.self)
        acceptor = DetachedThread.start(name: "tiltd.accept") { [file, limits, logger] in
            Self.acceptClients(on: file.socket, path: path, loop: loop, broadcaster: broadcaster,
                               sendBufferBytes: limits.sendBufferBytes, logger: logger)
            Posix.close(file.socket)  // shut down by close(); nobody uses it any more
        }
        logger.notice("serving states on unix:\(path)")
    }

    /// The accept loop, on the acceptor's thread until `close()` shuts the
    /// listening socket down. Each client's socket goes to NIO (reads,
    /// hang-up, hand-off writes) and a second descriptor of it to the
    /// broadcaster, which sends the states.
    ///
    /// Near the open-file limit (`DescriptorBudget`) a new connection is
    /// told so in one line and closed at once, so a flood of connections
    /// never takes the descriptors the process needs to keep running; the
    /// log says so once when it starts and once, with the count, when it ends.
    private static func acceptClients(on listener: Int32, path: String, loop: any EventLoop,
                                      broadcaster: StateBroadcaster, sendBufferBytes: Int32, logger: Logger) {
        var reportedFailure: Int32 = 0
        var refusedNearLimit = 0
        let refusal = Array("{\"error\":\"tiltd is near its open-file limit; try again later\"}\n".utf8)
        while true {
            let client: Int32
            do {
                client = try Posix.accept(listener)
            } catch {
                switch error.code {
                case EINVAL, EBADF:
                    return  // shut down by close()
                case ECONNABORTED, EPROTO, EPERM:
                    continue
                default:
                    // Out of descriptors or memory: say so once per kind, and
                    // let whoever holds them go before trying again.
                    if reportedFailure != error.code {
                        logger.warning("state socket unix:\(path): \(error); retrying")
                        reportedFailure = error.code
                    }
                    usleep(100_000)
                    continue
                }
            }
            reportedFailure = 0
            // The client's second descriptor, beyond the reserve.
            guard DescriptorBudget.allows(1) else {
                refusedNearLimit += 1
                if refusedNearLimit == 1 {
                    let limit = DescriptorBudget.softLimit.map(String.init) ?? "?"
                    logger.warning("""
                        state socket unix:\(path): near the open-file limit (\(limit)); refusing new connections until \
                        some close (raise the limit: ulimit -n, or LimitNOFILE= in the unit)
                        """)
                }
                refusal.withUnsafeBytes { _ = Posix.sendNow(client, $0) }
                Posix.close(client)
                continue
            }
            if refusedNearLimit > 0 {
                logger.notice("state socket unix:\(path): accepting again; refused \(refusedNearLimit) connection(s) near the open-file limit")
                refusedNearLimit = 0
            }
            let direct: DescriptorClaim
            do {
                try Posix.setSendBuffer(client, bytes: sendBufferBytes)
                direct = DescriptorClaim(try Posix.duplicate(client))
            } catch {
                logger.warning("state socket unix:\(path): \(error); closing the new connection")
                Posix.close(client)
                continue
            }
            ClientBootstrap(group: loop)
                .channelOption(.allowRemoteHalfClosure, value: true)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            BroadcastClient(broadcaster: broadcaster, descriptor: direct))
                    }
                }
                .withConnectedSocket(client)
                .whenFailure { error in
                    // NIO closed `client`; the handler never took `direct`.
                    direct.closeUnlessTaken()
                    logger.debug("state socket: could not register a client: \(error)")
                }
        }
    }

    deinit { close() }

    /// The number of connected clients.
    public var clientCount: Int { broadcaster.clientCount }

    /// How many clients wait on NIO to write what their full socket did not
    /// take (their newer states coalesce meanwhile); for tests.
    package var clientsWaitingOnHandOff: Int { broadcaster.clientsWaitingOnHandOff }

    /// How many clients have shut down their writing side so far (for tests).
    package var clientsHalfClosed: Int { broadcaster.clientsHalfClosed }

    public var usesRecords: Bool { true }

    public func emit(_ state: EncodedState) {
        if batch != nil {
            let line = state.line
            batch?.append(contentsOf: line)
            batchLast = line
        } else {
            broadcaster.send(state.line)
        }
    }

    /// Sends the states held for the batch to each client in one write, and
    /// holds the states that come from now on until the next batch ends.
    public func endBatch() {
        flush()
        if batch == nil { batch = [] }
    }

    /// Sends the states held for an unfinished batch.
    public func flush() {
        if let held = batch, !held.isEmpty { broadcaster.send(batch: held, last: batchLast) }
        batch?.removeAll(keepingCapacity: true)
    }

    /// New clients wait for the next state instead of getting the last one.
    public func forgetCurrentState() {
        broadcaster.forgetCurrentState()
    }

    /// The device stopped: clients connecting from now on wait for the next
    /// state instead of getting one that is no longer current.
    public func deviceStopped(_ stop: DeviceStop) { forgetCurrentState() }

    /// Removes the socket file and starts closing: the states emitted so far
    /// are sent, every client is disconnected and the socket closed; `run()`
    /// returns once that is done (and the acceptor's thread has ended). Idempotent; never blocks. Call it once
    /// the producer has stopped.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Wakes accept(2), which then fails: the acceptor's loop ends.
        Posix.shutdown(file.socket)
        file.release()
        broadcaster.stop().cascade(to: finished)
    }

    /// Serves until the lifecycle shuts down (the producer, a later service,
    /// has stopped by then), then closes.
    public func run() async throws {
        let finished = self.finished.futureResult
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await finished.get()
            } onGracefulShutdown: {
                self.close()
            }
        } onCancel: {
            self.close()
        }
        await acceptor.wait()
    }
}
