import Logging
import ServiceLifecycle

/// `tiltd serve`'s page announcement and keep-alive, as a service of the
/// lifecycle: once the server listens it says where (the bound port, when
/// `Setting.port` `0` picked one), then wakes idle streams every 15 s until shutdown
/// so they send a keep-alive, which also finds browsers that left.
public struct ServeAnnouncement: Service {
    public let server: WebServer
    public let host: String
    public let port: UInt16
    public let description: String
    public let logger: Logger

    public init(server: WebServer, host: String, port: UInt16, description: String, logger: Logger) {
        self.server = server
        self.host = host
        self.port = port
        self.description = description
        self.logger = logger
    }

    /// How often idle streams are woken.
    public static let keepAliveSeconds = 15

    public func run() async throws {
        try await server.waitUntilListening()
        let bound = server.listeningPort ?? port
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.notice("serving http://\(shownHost):\(bound)/ (\(description)); Ctrl-C stops")
        let feed = server.feed
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(Self.keepAliveSeconds)) } catch { return }
                feed.wakeAll()
            }
        }
    }
}
