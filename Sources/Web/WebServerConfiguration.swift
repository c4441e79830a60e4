import Logging

/// What `tiltd serve`'s web server listens on and how much one client may
/// make it hold (docs/streaming.md, "Limits").
public struct WebServerConfiguration: Sendable {
    /// IPv4 or IPv6 literal to bind (`127.0.0.1`, `::1`, `0.0.0.0`…).
    public var host: String
    /// TCP port; 0 picks a free one (see `WebServer.listeningPort`).
    public var port: UInt16
    /// Host names a browser may use besides localhost, 127.0.0.1, [::1] and
    /// the bound address (`Setting.allowHost`).
    public var allowedHosts: [String]
    /// Live streams (`/events`, `/ws`) at once; more get 503.
    public var maxStreams: Int
    /// Live streams one client address may hold at once
    /// (`Setting.maxStreamsPerClient`); nil: half of `maxStreams`, rounded up.
    public var maxStreamsPerClient: Int?
    /// Open connections at once (`Setting.maxConnections`); nil: 256, lowered to
    /// what the open-file limit leaves room for (`WebFileLimit`).
    public var maxConnections: Int?
    /// Request line plus headers, in bytes; longer gets 431 and a close.
    public var maxRequestHeadBytes: Int
    /// From a request's first byte to the end of its headers.
    public var headerTimeout: Duration
    /// From accepting (or answering the previous request) to the next
    /// request's first byte.
    public var idleTimeout: Duration
    /// A WebSocket frame, and a message reassembled from continuation frames, in bytes.
    public var maxWebSocketMessageBytes: Int
    /// Shown by `/healthz`: where the states come from.
    public var sourceDescription: String
    /// Where the server's own messages go (bind failures are thrown instead).
    public var logger: Logger
    /// Input messages one WebSocket may send per second, on average
    /// (`WebInputRateLimit`); a connection that sends faster is closed.
    public var inputMessagesPerSecond = 30.0
    /// Input messages one WebSocket may send at once before the rate applies.
    public var inputBurst = 30
    /// Input messages all WebSockets together may have acted on per second,
    /// on average (`WebInputSharedLimit`); more are refused, the
    /// connections stay open.
    public var sharedInputMessagesPerSecond = 60.0
    /// Input messages all WebSockets together may have acted on at once.
    public var sharedInputBurst = 60

    /// The defaults `tiltd serve` uses, on `host:port`.
    public init(host: String = "127.0.0.1", port: UInt16 = 8046, allowedHosts: [String] = [],
                maxStreams: Int = 32, maxStreamsPerClient: Int? = nil, maxConnections: Int? = nil,
                maxRequestHeadBytes: Int = 16 * 1024,
                headerTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(5),
                maxWebSocketMessageBytes: Int = 64 * 1024,
                sourceDescription: String = "",
                logger: Logger = Logger(label: "tiltd.web", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.host = host
        self.port = port
        self.allowedHosts = allowedHosts
        self.maxStreams = maxStreams
        self.maxStreamsPerClient = maxStreamsPerClient
        self.maxConnections = maxConnections
        self.maxRequestHeadBytes = maxRequestHeadBytes
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maxWebSocketMessageBytes = maxWebSocketMessageBytes
        self.sourceDescription = sourceDescription
        self.logger = logger
    }

    /// The connection cap without `Setting.maxConnections`.
    public static let defaultMaxConnections = 256
}
