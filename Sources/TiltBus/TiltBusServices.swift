import Sensors
import ServiceLifecycle

/// The D-Bus service as a service of the lifecycle: it serves from its own
/// bus thread until the group shuts down, then releases the name and ends
/// every claim. Listed before the producer, it stops after it, so the
/// claimants hear the last state, in the order the other servers stop.
public struct TiltBusService: Service {
    public let service: TiltService

    public init(_ service: TiltService) {
        self.service = service
    }

    public func run() async throws {
        // Returns at the group's shutdown (or throws when cancelled): stop either way.
        try? await gracefulShutdown()
        await service.stop()
    }
}

/// `tiltd monitor` as a service of the lifecycle: the monitor's blocking
/// sd-bus loop runs on a thread of its own (never on a task's thread), and
/// the group's shutdown (SIGINT, SIGTERM) makes it return.
public struct TiltMonitorService: Service {
    public let monitor: TiltMonitor

    public init(_ monitor: TiltMonitor) {
        self.monitor = monitor
    }

    public func run() async throws {
        let monitor = self.monitor
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                DetachedThread.start(name: "tiltd.monitor") {
                    do {
                        try monitor.run()
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onGracefulShutdown: {
            monitor.stop()
        }
    }
}
