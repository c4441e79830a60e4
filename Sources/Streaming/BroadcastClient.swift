import NIOCore

/// One connected reader of the state stream: a channel handler on the
/// broadcaster's event loop.
///
/// Its queue is bounded: while the channel is writable (NIO's outbound
/// buffer under its high-water mark, see `StateBroadcaster.Limits`) each
/// batch of lines is written whole; once it is not, only the newest line is
/// kept, replacing the one before, and written when the channel drains. NIO
/// writes buffers whole and in order, so the stream never carries a torn
/// line. A client that stops reading therefore costs at most the kernel's
/// socket buffer, the high-water mark plus one batch, and one line, and later
/// receives only the latest state.
final class BroadcastClient: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let broadcaster: StateBroadcaster
    private var context: ChannelHandlerContext?
    /// The newest line not yet written (coalesced) while the channel is full.
    private var pending: ByteBuffer?
    /// Since when the channel has been full (nil while it is writable).
    private(set) var stalledSince: NIODeadline?
    /// When the client connected.
    let connectedAt = NIODeadline.now()
    private var admitted = false

    init(broadcaster: StateBroadcaster) {
        self.broadcaster = broadcaster
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        admitted = broadcaster.admit(self)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted { broadcaster.remove(self) }
        admitted = false
        self.context = nil
        context.fireChannelInactive()
    }

    /// Clients have nothing to say: whatever they send is read and dropped.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// A client that shut down its writing side is still a reader.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { return }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        guard context.channel.isWritable else { return }
        stalledSince = nil
        if let line = pending {
            pending = nil
            write(line, to: context)
        }
    }

    /// Offers a batch of whole lines whose last line is `newest`.
    func offer(_ batch: ByteBuffer, newest: ByteBuffer) {
        guard let context else { return }
        if context.channel.isWritable {
            // Anything pending is older than this batch.
            pending = nil
            write(batch, to: context)
        } else {
            pending = newest
            if stalledSince == nil { stalledSince = .now() }
        }
    }

    /// Writes `line` (the refusal) and closes.
    func refuse(with line: ByteBuffer) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(line)).whenComplete { _ in context.close(promise: nil) }
    }

    /// Closes the connection (shutting down, or evicted to make room).
    func close() -> EventLoopFuture<Void>? {
        guard let context else { return nil }
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.close(promise: promise)
        return promise.futureResult
    }

    private func write(_ bytes: ByteBuffer, to context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        if !context.channel.isWritable, stalledSince == nil { stalledSince = .now() }
    }
}
