import Motion
import SamplePath
import ServiceLifecycle
import Web
import Wording

/// `tiltd serve`, run: the page's images and controls, the web server, the
/// announcement, the state source (a device or a paced recording) and the
/// volume slider, as services of one lifecycle (docs/streaming.md).
///
/// Everything that can fail at start (a recording that does not load, a
/// device that does not open, no audio server) fails before the page is
/// announced, so nobody is told to connect to a page without states.
public struct ServeRun: Sendable {
    public let configuration: ServeConfiguration

    public init(_ configuration: ServeConfiguration) {
        self.configuration = configuration
    }

    /// Serves until a signal stops the lifecycle (or a recording without
    /// `loop` ends and the page keeps its last state until then).
    ///
    /// - Throws: the recording's or the images' error; `ServeError` when
    ///   the address cannot be served or a slider source cannot be had;
    ///   `ReportedFailure` when the device does not open (already logged).
    public func run(under lifecycle: Lifecycle) async throws {
        let configuration = self.configuration
        // Every output path before anything is read or opened.
        try configuration.ring?.checkDirectory()
        let description = configuration.source.description
        // The ring's traces get the replayed recording's header, or what is known of the device.
        var header = TraceHeader(tiltdVersion: configuration.version)
        header.extra["recorded-from"] = "tiltd serve, " + description
        var readings: [Reading] = []
        if case let .replay(path, _, units, gyroUnits) = configuration.source {
            let loaded = try RecordingFile.load(path, units: units, gyroUnits: gyroUnits)
            header = loaded.header ?? TraceHeader(tiltdVersion: configuration.version)
            header.extra["recorded-from"] = "tiltd serve \(Setting.replay) \(path)"
            readings = loaded.readings
        }
        let layers = try WebLayerImages.render(size: configuration.layerSizePixels)
        let feed = WebStateFeed()
        let slider = try await ServeSlider.prepare(configuration.slider, posting: feed)
        var serverConfiguration = configuration.server
        serverConfiguration.sourceDescription = description
        try configuration.ring?.makeDirectory()
        let recorder = configuration.ring.map { ring in
            WebRingRecorder(directory: ring.directory, limitSeconds: ring.limitSeconds, keep: ring.keep,
                            maximumMebibytes: ring.maximumMebibytes, header: header,
                            logger: TiltdLog.logger) { json in feed.post("ring", json: json) }
        }
        let pageControls = WebPageControls(recorder: recorder, light: WebLightControl(
            initial: configuration.light, interactive: configuration.interactiveLight, feed: feed))
        // The volume slider's input (`Setting.controlVolume`) beside the ring's and the light's.
        var input = slider?.input ?? WebInputControls()
        pageControls.enableInput(in: &input)
        let server = try WebServer(configuration: serverConfiguration, layers: layers, feed: feed, input: input,
                                   larsBar: slider?.bar, controls: pageControls)
        if let maxConnections = serverConfiguration.maxConnections, let room = server.connectionRoom,
           maxConnections > room {
            TiltdLog.logger.notice("""
                \(Setting.maxConnections) \(maxConnections) is more than the open-file limit leaves room for \
                (about \(room)); past that, new connections wait in the backlog until one closes (raise ulimit -n)
                """)
        }
        // The ring records every reading before the page shows its state.
        let sampleRun = SampleRun(configuration: configuration.pipeline,
                                  sink: recorder.map { StateHub([$0, server.feed]) } ?? server.feed,
                                  reporter: DiagnosticReporter(subject: configuration.source.replayPath))
        let source: any Service
        var deviceRun: DeviceRun?
        switch configuration.source {
        case let .replay(_, loop, _, _):
            // The page keeps the last state after a recording without `Setting.loop` ends.
            source = ReplayService(source: .readings(readings), sampleRun: sampleRun, loop: loop, holdAtEnd: true)
        case let .device(capture):
            let run = DeviceRun(capture: capture, sampleRun: sampleRun, openAtStart: false,
                                version: configuration.version)
            // The source is opened before the page is announced: a device that
            // cannot be opened fails here, before anyone is told to connect.
            do { try run.open() } catch {
                TiltdLog.logger.error("\(error)")
                throw ReportedFailure(description: "\(error)")
            }
            deviceRun = run
            source = run
        }
        do {
            // Stopped in reverse: the source first, the server last. The ring,
            // stopped after the source, completes whatever it holds.
            let services: [(any Service)?] = [server, ServeAnnouncement(server: server, logger: TiltdLog.logger),
                                              recorder, source, slider]
            try await lifecycle.run(services.compactMap { $0 })
        } catch {
            await deviceRun?.close()
            guard case .cannotListen(let host, let port, let reason)? = error as? WebServerError else { throw error }
            throw ServeError("cannot serve on \(host):\(port): \(reason); check \(.host) \(host) (it must be an "
                + "address of this machine, e.g. 127.0.0.1)"
                + (port == 0 ? "" : " or choose another \(Setting.port) if something else uses \(port)"))
        }
    }
}
