import FlyingFox
import FlyingSocks
import Foundation
import Logging

/// The HTTP side of `tiltd serve`: FlyingFox's server with `WebRouter` as
/// its only handler.
final class WebServer: Sendable {
    private let server: HTTPServer
    /// The state feed the page and streams read; the producer emits into it.
    let feed: WebStateFeed
    let slots: WebStreamSlots

    /// Prepares a server on `host:port` (IPv4 or IPv6 literal; port 0 picks
    /// a free port, see `listeningPort`).
    ///
    /// - Throws: `WebServerError.badHost` when `host` is not an IP literal.
    init(host: String, port: UInt16, layers: WebLayerImages, maxStreams: Int,
         sourceDescription: String, feed: WebStateFeed = WebStateFeed()) throws {
        self.feed = feed
        self.slots = WebStreamSlots(limit: maxStreams)
        let router = WebRouter(feed: feed, slots: slots, layers: layers, sourceDescription: sourceDescription)
        let address: any SocketAddress
        do {
            if host.contains(":") {
                address = try sockaddr_in6.inet6(ip6: host, port: port)
            } else {
                address = try sockaddr_in.inet(ip4: host, port: port)
            }
        } catch {
            throw WebServerError.badHost(host)
        }
        // FlyingFox's timeout bounds producing a response, not streaming it.
        server = HTTPServer(config: .init(address: address, timeout: 15, logger: .disabled), handler: router)
    }

    /// Serves until cancelled or `stop()`.
    ///
    /// - Throws: `WebServerError.cannotListen` when binding fails.
    func run(host: String, port: UInt16) async throws {
        do {
            try await server.run()
        } catch is CancellationError {
        } catch {
            throw WebServerError.cannotListen(host: host, port: port, reason: "\(error)")
        }
    }

    /// Waits until the socket listens (at most `timeout` seconds).
    func waitUntilListening(timeout: TimeInterval = 10) async throws {
        try await server.waitUntilListening(timeout: timeout)
    }

    /// The bound port, once listening.
    var listeningPort: UInt16? {
        get async {
            switch await server.listeningAddress {
            case .ip4(_, let port), .ip6(_, let port): return port
            default: return nil
            }
        }
    }

    /// Stops listening and ends the live streams within `timeout` seconds.
    func stop(timeout: TimeInterval = 1) async {
        await server.stop(timeout: timeout)
    }
}
