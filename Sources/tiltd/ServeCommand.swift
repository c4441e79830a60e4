import ArgumentParser
import Commands
import Daemon
import SamplePath
import Serve
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
            live streams are limited (--max-streams, --max-streams-per-client) and refused to pages \
            from other origins and sites; \
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

    @Option(name: .customLong("max-streams-per-client"), parsing: .unconditional, help: ArgumentHelp(
        "Live streams one client address may hold at once; more get 503. Default: half of --max-streams.",
        valueName: "n"))
    var maxStreamsPerClient: Int?

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
        try validating { try ServeConfiguration.check(server: server, layerSizePixels: size) }
        if loop && replayFile == nil {
            throw ValidationError("--loop repeats a recording: give --replay FILE")
        }
        if let replayFile, let option = device.givenOptions.first {
            throw ValidationError("\(option) chooses how to read an accelerometer, but --replay \(replayFile) plays a "
                + "recording instead: give one or the other")
        }
    }

    var server: WebServerConfiguration {
        WebServerConfiguration(host: host, port: port, allowedHosts: allowedHosts, maxStreams: maxStreams,
                               maxStreamsPerClient: maxStreamsPerClient, maxConnections: maxConnections)
    }

    func run() async throws {
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let source: ServeConfiguration.Source = try replayFile.map {
            .replay(path: $0, loop: loop, units: recording.units, gyroUnits: recording.gyroUnits)
        } ?? .device(device.makeCaptureConfiguration(gyro: !pipeline.noGyro))
        let configuration = try validating {
            try ServeConfiguration(server: server, layerSizePixels: size, source: source,
                                   pipeline: pipeline.configuration(), slider: slider.settings(), ring: controls.ring(),
                                   light: light.colour, interactiveLight: controls.interactive, version: Tiltd.version)
        }
        try await ServeRun(configuration).run(under: lifecycle)
    }
}
