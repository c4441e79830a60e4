import NIOCore

/// The first handler of every connection, in front of the HTTP decoder: it
/// bounds what a client can make the server hold before a request exists.
///
/// - Request line plus headers over `maxHeadBytes` get `431` and a close as
///   soon as the excess arrives; the decoder behind never sees more than the
///   limit, so a megabyte header costs one read buffer, not a parse.
/// - A connection must send its next request's first byte within
///   `idleTimeout` (after accepting, or after its previous response) and the
///   rest of the head within `headerTimeout` of that byte; else `408` (or a
///   plain close when idle). Slowloris connections die within both together.
/// - It registers the connection with the server's `WebConnectionRegistry`
///   (the cap and its eviction) and tells it whether the connection waits
///   for a request (evictable) or serves one.
///
/// A response or live stream in progress has no timeout here: the browser
/// holds it open on purpose (WebSockets have their own ping).
///
/// Once `WebSocketGate` upgrades the connection, every frame the browser
/// sends must be masked (`WebSocketMaskCheck`): an unmasked one gets a close
/// frame with status 1002 (protocol error) and the connection is closed.
final class WebConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The per-connection limits (from `WebServerConfiguration`).
    struct Limits: Sendable {
        var maxHeadBytes: Int
        var headerTimeout: TimeAmount
        var idleTimeout: TimeAmount
    }

    private enum Phase {
        /// Reading a request head: its bytes so far, and whether the current
        /// line is still empty (a second empty line ends the head).
        case awaitingHead(bytes: Int, lineEmpty: Bool)
        /// A request is being answered (or the connection was upgraded).
        case inRequest
        /// Refused or timed out: input is dropped until the close completes.
        case closing
    }

    /// How long a refused connection's input is drained before the close.
    static let lingerTime = TimeAmount.seconds(2)

    private let limits: Limits
    private let registry: WebConnectionRegistry
    private var id: UInt64?
    private var phase = Phase.awaitingHead(bytes: 0, lineEmpty: false)
    /// Request heads decoded but not yet answered (pipelined requests).
    private var unanswered = 0
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Set once the connection is a WebSocket: checks the browser's frames.
    private var maskCheck: WebSocketMaskCheck?
    /// What the client sent after the current request's head, until its
    /// answer ends or it becomes a WebSocket (whose frames must then be
    /// checked too), at most `maxEarlyBytes`; nil once more came.
    private var sinceHead: [UInt8]? = []

    /// Bytes after a request's head kept for the WebSocket check.
    static let maxEarlyBytes = 16 * 1024

    init(limits: Limits, registry: WebConnectionRegistry) {
        self.limits = limits
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        if id == nil { start(context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard id == nil else { return }
        switch registry.register(context.channel) {
        case .admitted(let id):
            self.id = id
        case .admittedEvicting(let id, let victim):
            self.id = id
            victim.close(promise: nil)
        case .refused:
            phase = .closing
            context.close(promise: nil)
            return
        }
        schedule(limits.idleTimeout, status: nil)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if let id { registry.remove(id) }
        id = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .awaitingHead(let bytes, let lineEmpty) = phase else {
            guard case .inRequest = phase else { return }
            if maskCheck != nil {
                guard maskCheck!.scan(unwrapInboundIn(data)) else {
                    // An unmasked frame: close frame 1002, drop further input, close.
                    close(context, after: ByteBuffer(bytes: WebSocketMaskCheck.protocolErrorClose))
                    return
                }
            } else {
                keepEarly(unwrapInboundIn(data).readableBytesView)
            }
            context.fireChannelRead(data)
            return
        }
        let buffer = unwrapInboundIn(data)
        if bytes == 0 && buffer.readableBytes > 0 { schedule(limits.headerTimeout, status: "408 Request Timeout") }
        let (headEnd, endsEmpty) = Self.scanForHeadEnd(buffer, lineEmpty: lineEmpty)
        let headBytes = bytes + (headEnd ?? buffer.readableBytes)
        guard headBytes <= limits.maxHeadBytes else {
            refuse(status: "431 Request Header Fields Too Large",
                   message: "request line and headers are limited to \(limits.maxHeadBytes) bytes")
            return
        }
        if let headEnd {
            enterRequest()
            sinceHead = []
            keepEarly(buffer.readableBytesView.dropFirst(headEnd))
        } else {
            phase = .awaitingHead(bytes: headBytes, lineEmpty: endsEmpty)
        }
        context.fireChannelRead(data)
    }

    /// The offset just past the empty line ending a head in `buffer` (nil
    /// when it does not end there), and whether the buffer ends on an empty line.
    private static func scanForHeadEnd(_ buffer: ByteBuffer, lineEmpty: Bool) -> (Int?, Bool) {
        buffer.withUnsafeReadableBytes { bytes in
            var empty = lineEmpty
            for (offset, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "\n"):
                    if empty { return (offset + 1, true) }
                    empty = true
                case UInt8(ascii: "\r"):
                    continue
                default:
                    empty = false
                }
            }
            return (nil, empty)
        }
    }

    private func enterRequest() {
        timer?.cancel()
        timer = nil
        phase = .inRequest
        if let id { registry.setAwaitingRequest(id, false) }
    }

    /// Called by `WebRequestPhase` when the decoder produced a request head.
    func requestHeadArrived() {
        unanswered += 1
        if case .awaitingHead = phase { enterRequest() }
    }

    /// Called by `WebRequestPhase` when a response's end was written.
    func responseEnded() {
        guard maskCheck == nil else { return }
        sinceHead = []
        unanswered = max(0, unanswered - 1)
        guard unanswered == 0, case .inRequest = phase else { return }
        phase = .awaitingHead(bytes: 0, lineEmpty: false)
        if let id { registry.setAwaitingRequest(id, true) }
        schedule(limits.idleTimeout, status: nil)
    }

    private func keepEarly(_ bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty, sinceHead != nil else { return }
        if sinceHead!.count + bytes.count > Self.maxEarlyBytes {
            sinceHead = nil
        } else {
            sinceHead!.append(contentsOf: bytes)
        }
    }

    /// Called by `WebSocketGate` when it upgrades the connection: from now
    /// on the browser's bytes are WebSocket frames, checked for masks,
    /// including what it sent after its request before the answer.
    ///
    /// - Returns: false when what it sent early already breaks the rules
    ///   (an unmasked frame, or more than `maxEarlyBytes`): refuse the upgrade.
    func upgradingToWebSocket() -> Bool {
        var check = WebSocketMaskCheck()
        guard let early = sinceHead, check.scan(ByteBuffer(bytes: early)) else { return false }
        maskCheck = check
        sinceHead = nil
        return true
    }

    /// Closes the connection after `amount` unless cancelled, answering
    /// `status` first when given.
    private func schedule(_ amount: TimeAmount, status: String?) {
        timer?.cancel()
        guard let context else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: amount) { [self] in
            guard let context = self.context else { return }
            if let status {
                refuse(status: status, message: "the request head did not arrive in time")
            } else {
                phase = .closing
                context.close(promise: nil)
            }
        }
    }

    /// Answers `status` (e.g. `431 Request Header Fields Too Large`) with
    /// `message` straight to the socket, drops further input, and closes.
    ///
    /// - Parameter extraHeaders: more header lines, each ending in CRLF.
    func refuse(status: String, message: String, extraHeaders: String = "") {
        guard let context else { return }
        timer?.cancel()
        timer = nil
        let body = "\(message)\n"
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"
            + "\(extraHeaders)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        close(context, after: ByteBuffer(string: text))
    }

    /// Writes `bytes` straight to the socket, drops further input, and
    /// closes: half-close, then read and drop what the client is still
    /// sending for a moment (closing with unread input would reset the
    /// connection, and a reset can destroy the answer before it is read).
    private func close(_ context: ChannelHandlerContext, after bytes: ByteBuffer) {
        phase = .closing
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: Self.lingerTime) { channel.close(promise: nil) }
        }
    }
}
