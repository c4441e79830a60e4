import ArgumentParser
import Foundation
import Glibc
import Knob
import Motion
import Sensors

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

    @Option(parsing: .unconditional, help: ArgumentHelp("Side of the knob layer images in pixels (16…1024): the knob's size on the page.",
                               valueName: "px"))
    var size = 256

    @Option(name: .customLong("max-streams"), parsing: .unconditional, help: ArgumentHelp(
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
        if let replayFile, let option = device.givenOptions.first {
            throw ValidationError("\(option) chooses how to read an accelerometer, but --replay \(replayFile) plays a "
                + "recording instead: give one or the other")
        }
    }

    func run() async throws {
        let description: String
        var replay: ServeReplay?
        if let replayFile {
            let loaded = try recording.load(replayFile)
            replay = ServeReplay(readings: loaded.readings, configuration: pipeline.makeConfiguration(), loop: loop)
            description = "replay \(replayFile)" + (loop ? " (loop)" : "")
        } else {
            description = "device " + (device.device ?? "display accelerometer") + " at " + device.uri
        }
        let layers = try WebLayerImages.render(size: size)
        let server = try WebServer(host: host, port: port, layers: layers, maxStreams: maxStreams,
                                   sourceDescription: description)
        // The source is opened before the page is announced: a device that
        // cannot be opened fails here, before anyone is told to connect.
        let deviceRun = replay != nil ? nil : DeviceRun(
            capture: device.makeCaptureConfiguration(), pipeline: pipeline.makeConfiguration(),
            sinks: [server.feed], tracePath: nil, count: nil, duration: nil)
        if let deviceRun {
            do { try deviceRun.open() } catch {
                DeviceDiagnostics.print("\(error)")
                throw ExitCode.failure
            }
        }
        do {
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(host: host, port: port) }
            try await server.waitUntilListening(host: host, port: port)
            let bound = await server.listeningPort ?? port
            let shownHost = host.contains(":") ? "[\(host)]" : host
            StdoutSink.writeStandardError("tiltd: serving http://\(shownHost):\(bound)/ (\(description)); Ctrl-C stops")
            group.addTask {
                // Idle streams send a keep-alive, which also finds browsers that left.
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(15))
                    server.feed.wakeAll()
                }
            }
            var failure: (any Error)?
            if let replay {
                group.addTask { await replay.run(into: server.feed) }
                let signal = await ServeSignals.termination()
                StdoutSink.writeStandardError("tiltd: \(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
            } else if let deviceRun {
                // DeviceRun stops by itself on SIGINT/SIGTERM (buffer disabled).
                do { _ = try await deviceRun.run(openNow: false) } catch { failure = error }
            }
            await server.stop(timeout: 1)
            group.cancelAll()
            if let failure { throw failure }
          }
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
