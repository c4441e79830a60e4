import NIOCore

/// One connected reader of the state stream: the channel handler that
/// ties its connection's lifetime to the broadcaster, on the event loop.
///
/// States do not pass through the channel while the socket takes them
/// (`StateBroadcaster` sends them on the producer's thread); the channel
/// admits the client, drops whatever it sends, reports it gone, writes what
/// a full socket did not take (`ClientLink`), and writes the refusal.
final class BroadcastClient: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let broadcaster: StateBroadcaster
    /// The broadcaster's copy of this client's socket, handed over at admission.
    private let descriptor: DescriptorClaim

    init(broadcaster: StateBroadcaster, descriptor: DescriptorClaim) {
        self.broadcaster = broadcaster
        self.descriptor = descriptor
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let descriptor = descriptor.take() else {
            context.close(promise: nil)
            return
        }
        switch broadcaster.admit(context.channel, descriptor: descriptor) {
        case .admitted:
            break
        case .refused(let line):
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(line)).whenComplete { _ in channel.close(promise: nil) }
        case .closing:
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    /// Always asks the broadcaster to forget the channel: `remove` is a no-op
    /// for a channel it never kept, and a client whose first write failed
    /// can go inactive inside `admit` (the close runs synchronously on the
    /// event loop), before this handler could note that it was admitted.
    func channelInactive(context: ChannelHandlerContext) {
        broadcaster.remove(context.channel)
        context.fireChannelInactive()
    }

    /// A channel that never became active leaves the descriptor to close here.
    func handlerRemoved(context: ChannelHandlerContext) {
        descriptor.closeUnlessTaken()
    }

    /// Clients have nothing to say: whatever they send is read and dropped.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// A client that shut down its writing side is still a reader.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            broadcaster.noteHalfClosed()
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
