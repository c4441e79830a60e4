import ArgumentParser
import Foundation
import Glibc
import Knob
import Motion
import Sensors
import ServiceLifecycle
import Streaming
import Web

/// `tiltd serve`: a live web page of the knob, from a recording (`--replay`)
/// or the accelerometer, on 127.0.0.1 by default.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a live web page of the knob over HTTP (and /state, /events, /ws).",
        discussion: """
            Open http://HOST:PORT/ in a browser: the knob is drawn from layer images made by \
            tiltd's own rasterizer and its two shines turn and fade with every state, with a \
            roll/pitch readout and a plot of the last seconds. /state gives the newest state as \
            JSON (503 before the first), /events streams them as server-sent events, /ws as a \
            WebSocket, /healthz answers. --record-dir shows the recording ring (hold it to record \
            the motion into a trace there) and --interactive lets viewers set the light's colour; \
            otherwise read-only. Only requests naming this server \
            (localhost, 127.0.0.1, [::1], the --host address, --allow-host names) are answered; \
            live streams are limited (--max-streams) and refused to pages from other origins; \
            connections are capped (--max-connections) and must send their request promptly. \
            See docs/streaming.md.
            """)

    @Option(help: ArgumentHelp("Address to listen on: an IPv4 or IPv6 literal. 0.0.0.0 exposes "
                               + "the device's motion to the network.", valueName: "ip"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("TCP port (0 picks a free one and prints it).", valueName: "port"))
    var port: UInt16 = 8046

    @Option(name: .customLong("replay"), help: ArgumentHelp(
        "Play a trace or CSV recording, paced to its timestamps, instead of reading a device.",
        valueName: "file"))
    var replayFile: String?

    @Flag(help: "With --replay: start the recording over when it ends.")
    var loop = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Side of the knob layer images in pixels (16…1024): the knob's size on the page.",
                               valueName: "px"))
    var size = 256

    @Option(name: .customLong("max-streams"), parsing: .unconditional, help: ArgumentHelp(
        "Live streams (/events, /ws) served at once; more get 503.", valueName: "n"))
    var maxStreams = 32

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "Also answer requests for this host name (repeatable), e.g. the machine's name when serving on 0.0.0.0.",
        valueName: "name"))
    var allowedHosts: [String] = []

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open connections at once; a new one evicts the oldest still waiting for its request. "
            + "Default: 256, or fewer to fit the open-file limit.", valueName: "n"))
    var maxConnections: Int?

    @OptionGroup var device: DeviceOptions
    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup(title: "Volume slider") var slider: ServeLevelsOptions
    @OptionGroup var controls: ServeControlOptions
    @OptionGroup var light: LightColourOptions

    func validate() throws {
        var ipv4 = in_addr(), ipv6 = in6_addr()
        guard inet_pton(AF_INET, host, &ipv4) == 1 || inet_pton(AF_INET6, host, &ipv6) == 1 else {
            throw ValidationError(WebServerError.badHost(host).description)
        }
        guard (16...1024).contains(size) else {
            throw ValidationError("--size \(size): layer images are 16 to 1024 pixels")
        }
        guard (1...1024).contains(maxStreams) else {
            throw ValidationError("--max-streams \(maxStreams): give 1 to 1024")
        }
        if let maxConnections, !(1...65536).contains(maxConnections) {
            throw ValidationError("--max-connections \(maxConnections): give 1 to 65536")
        }
        for name in allowedHosts where !WebHostAllowlist.isValidName(name) {
            throw ValidationError("--allow-host \(name): give a host name or address without scheme or path, e.g. --allow-host mybox.local")
        }
        if loop && replayFile == nil {
            throw ValidationError("--loop repeats a recording: give --replay FILE")
        }
        if let replayFile, let option = device.givenOptions.first {
            throw ValidationError("\(option) chooses how to read an accelerometer, but --replay \(replayFile) plays a "
                + "recording instead: give one or the other")
        }
    }

    func run() async throws {
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let description: String
        var readings: [Reading]?
        var header = TraceHeader(tiltdVersion: Tiltd.version)
        if let replayFile {
            let loaded = try recording.load(replayFile)
            readings = loaded.readings
            header = loaded.header ?? header
            header.extra["recorded-from"] = "tiltd serve --replay \(replayFile)"
            description = "replay \(replayFile)" + (loop ? " (loop)" : "")
        } else {
            description = "device " + (device.device ?? "display accelerometer") + " at " + device.uri
            header.extra["recorded-from"] = "tiltd serve, " + description
        }
        let layers = try WebLayerImages.render(size: size)
        let slider = try await ServeSlider.prepare(self.slider)
        let configuration = WebServerConfiguration(host: host, port: port, allowedHosts: allowedHosts,
                                                   maxStreams: maxStreams, maxConnections: maxConnections,
                                                   sourceDescription: description)
        let feed = WebStateFeed(), channels = WebChannelFeed(waking: feed)
        let recorder = controls.makeRecorder(channels: channels, header: header)
        // Whatever the ring holds gets its final name however serve stops.
        defer { recorder?.shutdown() }
        let pageControls = WebPageControls(recorder: recorder, light: WebLightControl(
            initial: light.colour, interactive: controls.interactive, feed: feed))
        // The volume slider's input (--control-volume) beside the ring's and the light's.
        var input = slider?.input ?? WebInputControls()
        pageControls.enableInput(in: &input)
        let server = try WebServer(configuration: configuration, layers: layers, feed: feed, input: input,
                                   larsBar: slider?.bar, controls: pageControls, channels: channels)
        if let maxConnections, let room = server.connectionRoom, maxConnections > room {
            TiltdLog.logger.notice("""
                --max-connections \(maxConnections) is more than the open-file limit leaves room for \
                (about \(room)); past that, new connections wait in the backlog until one closes (raise ulimit -n)
                """)
        }
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: server.feed,
                                  reporter: DiagnosticReporter(subject: replayFile), tap: recorder)
        let source: any Service
        var deviceRun: DeviceRun?
        if let readings {
            // The page keeps the last state after a recording without --loop ends.
            source = ReplayService(readings: readings, sampleRun: sampleRun, pacing: .realTime(loop: loop),
                                   holdAtEnd: true)
        } else {
            let run = DeviceRun(capture: device.makeCaptureConfiguration(gyro: !pipeline.noGyro), sampleRun: sampleRun,
                                openAtStart: false, version: Tiltd.version)
            // The source is opened before the page is announced: a device that
            // cannot be opened fails here, before anyone is told to connect.
            do { try run.open() } catch {
                TiltdLog.logger.notice("\(error)")
                throw ExitCode.failure
            }
            deviceRun = run
            source = run
        }
        let announcement = ServeAnnouncement(server: server, host: host, port: port, description: description,
                                              logger: TiltdLog.logger)
        do {
            // Stopped in reverse: the source first, the server last.
            try await lifecycle.runCommand([server, announcement, source, slider?.service(posting: server.channels)])
        } catch WebServerError.cannotListen(let host, let port, let reason) {
            deviceRun?.close()
            throw ServeError("cannot serve on \(host):\(port): \(reason); check --host \(host) (it must be an "
                + "address of this machine, e.g. 127.0.0.1)"
                + (port == 0 ? "" : " or choose another --port if something else uses \(port)"))
        } catch {
            deviceRun?.close()
            throw error
        }
    }
}
