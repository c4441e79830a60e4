import ServiceLifecycle
import Streaming
import Web

/// `tiltd serve`'s page announcement and keep-alive, as a service of the
/// lifecycle: once the server listens it says where (the bound port, when
/// `--port 0` picked one), then wakes idle streams every 15 s until shutdown
/// so they send a keep-alive, which also finds browsers that left.
struct ServeAnnouncement: Service {
    let server: WebServer
    let host: String
    let port: UInt16
    let description: String

    /// How often idle streams are woken.
    static let keepAliveSeconds = 15

    func run() async throws {
        try await server.waitUntilListening()
        let bound = server.listeningPort ?? port
        let shownHost = host.contains(":") ? "[\(host)]" : host
        TiltdLog.logger.notice("serving http://\(shownHost):\(bound)/ (\(description)); Ctrl-C stops")
        let feed = server.feed
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(Self.keepAliveSeconds)) } catch { return }
                feed.wakeAll()
            }
        }
    }
}
