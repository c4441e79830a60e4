import ArgumentParser
import Foundation
import Glibc
import Knob
import Motion
import Sensors
import ServiceLifecycle
import Streaming

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
            WebSocket, /healthz answers. Read-only; live streams are limited (--max-streams) \
            and refused to pages from other origins. See docs/streaming.md.
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

    @Option(help: ArgumentHelp("Side of the knob layer images in pixels (16…1024): the knob's size on the page.",
                               valueName: "px"))
    var size = 256

    @Option(name: .customLong("max-streams"), help: ArgumentHelp(
        "Live streams (/events, /ws) served at once; more get 503.", valueName: "n"))
    var maxStreams = 32

    @OptionGroup var device: DeviceOptions
    @OptionGroup var pipeline: PipelineOptions
    @OptionGroup var recording: RecordingOptions

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
        if loop && replayFile == nil {
            throw ValidationError("--loop repeats a recording: give --replay FILE")
        }
    }

    func run() async throws {
        let description: String
        var readings: [Reading]?
        if let replayFile {
            readings = try recording.load(replayFile).readings
            description = "replay \(replayFile)" + (loop ? " (loop)" : "")
        } else {
            description = "device " + (device.device ?? "display accelerometer") + " at " + device.uri
        }
        // Before any file exists that a signal must clean up.
        let lifecycle = await Lifecycle.trappingSignals()
        let layers = try WebLayerImages.render(size: size)
        let server = try WebServer(host: host, port: port, layers: layers, maxStreams: maxStreams,
                                   sourceDescription: description)
        let sampleRun = SampleRun(configuration: pipeline.makeConfiguration(), sink: server.feed,
                                  reporter: DiagnosticReporter(subject: replayFile))
        let source: any Service
        if let readings {
            // The page keeps the last state after a recording without --loop ends.
            source = ReplayService(readings: readings, sampleRun: sampleRun, pacing: .realTime(loop: loop),
                                   holdAtEnd: true)
        } else {
            source = DeviceRun(capture: device.makeCaptureConfiguration(), sampleRun: sampleRun,
                               version: Tiltd.version)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(host: host, port: port) }
            try await server.waitUntilListening(host: host, port: port)
            let bound = await server.listeningPort ?? port
            let shownHost = host.contains(":") ? "[\(host)]" : host
            TiltdLog.logger.notice("serving http://\(shownHost):\(bound)/ (\(description)); Ctrl-C stops")
            group.addTask {
                // Idle streams send a keep-alive, which also finds browsers that left.
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(15))
                    server.feed.wakeAll()
                }
            }
            var failure: (any Error)?
            do { try await lifecycle.runCommand([source]) } catch { failure = error }
            await server.stop(timeout: 1)
            group.cancelAll()
            if let failure { throw failure }
        }
    }
}
