import Hummingbird
import NIOCore

/// The request context of `tiltd serve`'s routes: Hummingbird's basic
/// context plus the client's address, which the live streams are counted
/// against (`WebStreamSlots`).
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer, nil when the socket no longer knows it.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
