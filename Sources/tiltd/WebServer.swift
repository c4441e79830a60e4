import FlyingFox
import FlyingSocks
import Foundation
import Logging
import Synchronization

/// The HTTP side of `tiltd serve`: FlyingFox's server with `WebRouter` as
/// its only handler.
final class WebServer: Sendable {
    private let server: HTTPServer
    /// The state feed the page and streams read; the producer emits into it.
    let feed: WebStateFeed
    let slots: WebStreamSlots
    private let failure = Mutex<WebServerError?>(nil)

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
            let reason: String
            if let socketError = error as? SocketError, case .failed(let call, _, let message) = socketError {
                reason = "\(call.lowercased()): \(message)"
            } else {
                reason = error.localizedDescription
            }
            let failed = WebServerError.cannotListen(host: host, port: port, reason: reason)
            failure.withLock { $0 = failed }
            throw failed
        }
    }

    /// Waits until the socket listens, or `run` failed (at most `timeout` seconds).
    ///
    /// - Throws: `run`'s `WebServerError`, or `.cannotListen` on timeout.
    func waitUntilListening(host: String = "", port: UInt16 = 0, timeout: TimeInterval = 10) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while true {
            if let failed = failure.withLock({ $0 }) { throw failed }
            if await server.listeningAddress != nil { return }
            guard ContinuousClock.now < deadline else {
                throw WebServerError.cannotListen(host: host, port: port, reason: "not listening after \(Int(timeout)) s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
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
