import ServiceLifecycle
import Knob
import SamplePath

/// The ring is a consumer of serve's hub: it records every sample's reading.
extension WebRingRecorder: StateSink {
    public var wantsEverySample: Bool { true }
    public func take(_ sample: PublishedSample) { record(sample.reading) }
    public func emit(_ state: EncodedState) {}
}

/// The ring as a service of serve's lifecycle: when the lifecycle shuts
/// down (after the source, listed before it), a hold still open ends and
/// every recording is completed before serve exits, so nothing recorded is
/// lost however serve stops.
extension WebRingRecorder: Service {
    public func run() async throws {
        // Returns at the group's shutdown (or throws when cancelled): complete either way.
        try? await gracefulShutdown()
        await shutdown()
    }
}
