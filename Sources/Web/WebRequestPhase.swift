import NIOCore
import NIOHTTPTypes

/// Sits behind the HTTP codec and tells the connection's
/// `WebConnectionGuard` when a request head was decoded and when its
/// response ended, so the guard knows when the connection waits for the next
/// request (timeouts and eviction apply) and when it is busy.
final class WebRequestPhase: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var connectionGuard: WebConnectionGuard?

    func handlerAdded(context: ChannelHandlerContext) {
        connectionGuard = try? context.pipeline.syncOperations.handler(type: WebConnectionGuard.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { connectionGuard?.requestHeadArrived() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connectionGuard?.responseEnded() }
        context.write(data, promise: promise)
    }
}
