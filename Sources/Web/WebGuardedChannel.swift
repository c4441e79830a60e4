import HummingbirdCore
import Logging
import NIOCore

/// A Hummingbird child channel (`Base`: HTTP/1 with WebSocket upgrade) with
/// a `WebConnectionGuard` put in front of its HTTP decoder.
///
/// Hummingbird's own hook for extra handlers places them after the decoder,
/// too late to bound what the decoder buffers.
struct WebGuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let limits: WebConnectionGuard.Limits
    let registry: WebConnectionRegistry

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(WebConnectionGuard(limits: limits, registry: registry),
                                                           position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
