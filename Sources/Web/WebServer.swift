import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import SamplePath
import ServiceLifecycle
import Synchronization

/// The HTTP side of `tiltd serve`: Hummingbird 2 with a WebSocket upgrade,
/// on SwiftNIO's shared event-loop group, every connection guarded
/// (`WebConnectionGuard`) and counted (`WebConnectionRegistry`).
///
/// It is a swift-service-lifecycle `Service`: run it in a `ServiceGroup`
/// (graceful shutdown ends the live streams and closes the listener) or in a
/// task and cancel that task.
public final class WebServer: Service, Sendable {
    /// The states and channels the page and streams read; the producer emits into it.
    public let feed: WebStateFeed
    /// The live streams open now and their limit.
    public let slots: WebStreamSlots
    public let configuration: WebServerConfiguration
    /// The connection cap in force (`WebFileLimit.connectionCap`).
    public var maxConnections: Int { registry.limit }
    /// Connections the listener accepts at once: what the open-file limit
    /// leaves room for (`WebFileLimit.connectionRoom`, measured at `init`),
    /// nil when unlimited.
    public let connectionRoom: Int?
    let registry: WebConnectionRegistry
    /// The bound port once listening (port 0 picks one), or why `run`
    /// could not start; nil before. The origin check reads it too.
    private let listening = NewestValue<Result<Int, WebServerError>?>(nil)
    /// The close at the end of a shutdown's drain, once scheduled.
    private let drain = Mutex<Scheduled<Void>?>(nil)
    private let application: any Service

    /// Prepares a server (nothing is bound until `run`).
    ///
    /// - Parameter input: the controls a page may change through `/ws`
    ///   (none: the page is display-only and input messages are refused).
    /// - Parameter larsBar: the LARSBar slider to show beside the knob, nil for none.
    /// - Throws: `WebServerError.badHost` when `configuration.host` is not an IP literal.
    public init(configuration: WebServerConfiguration, layers: WebLayerImages, feed: WebStateFeed = WebStateFeed(),
                input: WebInputControls = WebInputControls(), larsBar: WebLARSBar? = nil,
                controls: WebPageControls = WebPageControls()) throws {
        guard (try? SocketAddress(ipAddress: configuration.host, port: 0)) != nil else {
            throw WebServerError.badHost(configuration.host)
        }
        self.configuration = configuration
        self.feed = feed
        self.slots = WebStreamSlots(limit: configuration.maxStreams,
                                    perSourceLimit: configuration.maxStreamsPerClient)
        let room = WebFileLimit.connectionRoom
        self.connectionRoom = room
        let registry = WebConnectionRegistry(limit: WebFileLimit.connectionCap(requested: configuration.maxConnections,
                                                                               room: room))
        self.registry = registry
        let parts = WebRouter.Parts(feed: feed, slots: slots, layers: layers,
                                    allowlist: WebHostAllowlist(boundHost: configuration.host, extra: configuration.allowedHosts),
                                    listening: listening, sourceDescription: configuration.sourceDescription,
                                    input: input, inputRate: (configuration.inputMessagesPerSecond, configuration.inputBurst),
                                    sharedInputLimit: WebInputRateLimit(perSecond: configuration.sharedInputMessagesPerSecond,
                                                                        burst: configuration.sharedInputBurst),
                                    larsBar: larsBar, controls: controls)
        let gate = WebSocketGate(parts: parts, maxMessageBytes: configuration.maxWebSocketMessageBytes)
        let limits = WebConnectionGuard.Limits(maxHeadBytes: configuration.maxRequestHeadBytes,
                                               headerTimeout: TimeAmount(configuration.headerTimeout),
                                               idleTimeout: TimeAmount(configuration.idleTimeout))
        // The decoder's own limits back up the guard's (which stops a head first).
        let headLimit = configuration.maxRequestHeadBytes
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [WebRequestPhase()], idleTimeout: nil,
                                               httpDecoderConfiguration: .init(maxHeaderFieldSize: headLimit,
                                                                               maxHeaderListSize: headLimit))
        // A browser that sent too much gets a close frame (1009) and 2 s to answer it.
        let webSocket = WebSocketServerConfiguration(maxFrameSize: configuration.maxWebSocketMessageBytes,
                                                     closeTimeout: .seconds(2))
        let server = HTTPServerBuilder { responder in
            WebGuardedChannel(base: HTTP1WebSocketUpgradeChannel(responder: responder,
                                                                 configuration: .init(http1: http1, ws: webSocket),
                                                                 shouldUpgrade: { head, channel, _ in
                                                                     gate.shouldUpgrade(head, channel: channel)
                                                                 }),
                              limits: limits, registry: registry)
        }
        let listening = self.listening
        // The listener stops accepting while `room` connections are open, so
        // the clients never take the descriptors the runtime needs
        // (`WebFileLimit`); an explicit cap above that waits in the backlog.
        let budget = room.map { MaximumAvailableConnections($0, logger: configuration.logger) }
        application = Application(router: WebRouter.make(parts), server: server,
                                  configuration: .init(address: .hostname(configuration.host, port: Int(configuration.port)),
                                                       availableConnectionsDelegate: budget),
                                  onServerRunning: { channel in
                                      if let port = channel.localAddress?.port { listening.post(.success(port)) }
                                  },
                                  eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
                                  logger: configuration.logger)
    }

    /// How long a graceful shutdown lets open connections finish before
    /// they are closed: a stream sends its last state well within it, and a
    /// browser that stopped reading cannot hold `tiltd serve` open (SIGTERM
    /// must end it within a second).
    public static let shutdownDrain = TimeAmount.milliseconds(500)

    /// Serves until the task is cancelled or a graceful shutdown ends it.
    ///
    /// Hummingbird's graceful shutdown waits for every connection with no
    /// deadline, and its cancellation closes only each connection's input:
    /// a stream or WebSocket whose write waits on a browser that stopped
    /// reading (full send buffer) never ends. So a shutdown closes whatever
    /// is still open after `shutdownDrain`, and a cancellation at once; a
    /// full close fails the pending writes.
    ///
    /// - Throws: `WebServerError.cannotListen` when binding fails; after
    ///   that, what Hummingbird throws.
    public func run() async throws {
        let registry = self.registry
        defer { drain.withLock { $0?.cancel() } }
        do {
            try await withGracefulShutdownHandler {
                try await withTaskCancellationHandler {
                    try await application.run()
                } onCancel: {
                    registry.closeAll()
                }
            } onGracefulShutdown: {
                let task = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: Self.shutdownDrain) {
                    registry.closeAll()
                }
                self.drain.withLock { $0 = task }
            }
        } catch {
            // Only a failure to start is a listening problem.
            guard listening.current.value == nil, !(error is CancellationError) else { throw error }
            let reason: String
            if let io = error as? IOError {
                reason = String(cString: strerror(io.errnoCode)).lowercased()
            } else {
                reason = String(describing: error)
            }
            let failed = WebServerError.cannotListen(host: configuration.host, port: configuration.port, reason: reason)
            listening.post(.failure(failed))
            throw failed
        }
    }

    /// Waits until the socket listens, or `run` failed (at most `timeout` seconds).
    ///
    /// - Throws: `run`'s `WebServerError`, or `.cannotListen` on timeout.
    public func waitUntilListening(timeout: Duration = .seconds(10)) async throws {
        let listening = self.listening, configuration = self.configuration
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                guard let result = await listening.next(after: 0)?.value else { throw CancellationError() }
                _ = try result.get()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw WebServerError.cannotListen(host: configuration.host, port: configuration.port,
                                                  reason: "not listening after \(timeout)")
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// The bound port, once listening.
    public var listeningPort: UInt16? { (try? listening.current.value?.get()).map { UInt16($0) } }

    /// Connections open now, and how many were evicted at the cap so far.
    public var connections: (open: Int, evicted: Int) { (registry.count, registry.evictions) }
}
