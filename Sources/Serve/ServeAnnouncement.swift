import Logging
import ServiceLifecycle
import Web

/// `tiltd serve`'s page announcement and keep-alive, as a service of the
/// lifecycle: once the server listens it says where (the bound port, when
/// `Setting.port` `0` picked one) and what it serves, then wakes idle
/// streams every 15 s until shutdown so they send a keep-alive, which also
/// finds browsers that left.
struct ServeAnnouncement: Service {
    let server: WebServer
    let logger: Logger

    /// How often idle streams are woken.
    static let keepAliveSeconds = 15

    func run() async throws {
        try await server.waitUntilListening()
        let host = server.configuration.host
        let bound = server.listeningPort ?? server.configuration.port
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.notice("serving http://\(shownHost):\(bound)/ (\(server.configuration.sourceDescription)); Ctrl-C stops")
        let feed = server.feed
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(Self.keepAliveSeconds)) } catch { return }
                feed.wakeAll()
            }
        }
    }
}
