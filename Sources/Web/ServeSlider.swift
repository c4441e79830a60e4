import Foundation
import Levels
import Motion
import ServiceLifecycle
import Synchronization
import Streaming

/// The LARSBar slider of `tiltd serve`, wired: where its levels come from
/// (a live PulseAudio meter or a level file), and with `Setting.controlVolume`
/// the default sink's volume both ways. Everything that can fail at start
/// (no audio server, a bad file) fails in `prepare`, before the page is
/// announced.
public final class ServeSlider: Sendable {
    /// Where the slider's levels come from and whether it sets the volume
    /// (`Setting.levels`, `Setting.levelsSource`, `Setting.levelsFile`, `Setting.controlVolume`).
    public struct Settings: Sendable, Equatable {
        /// Meter what the machine plays (PulseAudio or pipewire-pulse).
        public var liveLevels: Bool
        /// With `liveLevels`: the PulseAudio source; nil: the default output's monitor.
        public var levelsSource: String?
        /// Replay levels from this file (WAV or levels JSON Lines), looping.
        public var levelsFile: String?
        /// The page's slider sets the default sink's volume.
        public var controlVolume: Bool

        /// Checks that the settings go together.
        ///
        /// - Throws: `SettingError` naming the option to change.
        public init(liveLevels: Bool = false, levelsSource: String? = nil, levelsFile: String? = nil,
                    controlVolume: Bool = false) throws(SettingError) {
            if liveLevels, let levelsFile {
                throw SettingError("\(.levels) meters live audio and \(.levelsFile) \(levelsFile) replays a file: give one or the other")
            }
            if let levelsFile, levelsFile.isEmpty {
                throw SettingError("\(.levelsFile) needs a file name (FILE.wav or FILE.jsonl)")
            }
            if let levelsSource {
                guard liveLevels else {
                    throw SettingError("\(.levelsSource) \(levelsSource) chooses what \(.levels) meters: add \(.levels)")
                }
                if levelsSource.isEmpty { throw SettingError("\(.levelsSource) needs a source name (see `pactl list short sources`)") }
            }
            self.liveLevels = liveLevels
            self.levelsSource = levelsSource
            self.levelsFile = levelsFile
            self.controlVolume = controlVolume
        }

        /// Whether the page shows the slider.
        public var showsSlider: Bool { liveLevels || levelsFile != nil || controlVolume }
    }

    public let bar: WebLARSBar
    public let input: WebInputControls
    private let meter: LevelMeter?
    private let track: LevelTrack?
    private let volume: SinkVolumeControl?

    /// Opens the level source and the volume control the options ask for.
    ///
    /// - Throws: `ServeError` naming the file or audio server and what to do.
    public static func prepare(_ options: Settings) async throws -> ServeSlider? {
        guard options.showsSlider else { return nil }
        var track: LevelTrack?
        if let path = options.levelsFile {
            do { track = try LevelTrack.load(path: path) } catch {
                throw ServeError("\(.levelsFile): \(error)")
            }
        }
        let relay = LevelRelay()
        var meter: LevelMeter?
        if options.liveLevels {
            do {
                let live = try LevelMeter(source: options.levelsSource) { relay.handle($0) }
                try await live.start()
                meter = live
            } catch {
                throw ServeError("\(.levels): \(error)")
            }
        }
        var input = WebInputControls()
        var volume: SinkVolumeControl?
        if options.controlVolume {
            do {
                let control = try SinkVolumeControl()
                try await control.connect()
                _ = try await control.volume()
                volume = control
            } catch {
                meter?.stop()
                throw ServeError("\(.controlVolume): \(error)")
            }
            input.enable(WebLARSBar.valueChannel, range: 0...1) { [volume] fraction in
                try await volume?.setVolume(fraction: fraction)
            }
        }
        let bar: WebLARSBar
        do { bar = try WebLARSBar.render(interactive: options.controlVolume) } catch {
            meter?.stop()
            throw ServeError("cannot draw the slider's thumb: \(error)")
        }
        return ServeSlider(bar: bar, input: input, meter: meter, relay: relay, track: track, volume: volume)
    }

    private let relay: LevelRelay

    private init(bar: WebLARSBar, input: WebInputControls, meter: LevelMeter?, relay: LevelRelay,
                 track: LevelTrack?, volume: SinkVolumeControl?) {
        self.bar = bar
        self.input = input
        self.meter = meter
        self.relay = relay
        self.track = track
        self.volume = volume
    }

    /// The service that feeds the page's channels until shutdown, then
    /// stops the meter and the volume control.
    public func service(posting channels: WebChannelFeed) -> any Service {
        relay.attach(channels)
        return SliderService(slider: self, channels: channels)
    }

    private struct SliderService: Service {
        let slider: ServeSlider
        let channels: WebChannelFeed

        func run() async throws {
            if let volume = slider.volume {
                do {
                    try await volume.subscribe { [channels] sink in
                        channels.post(WebLARSBar.valueChannel,
                                      json: #"{"value":\#(sink.fraction),"muted":\#(sink.muted)}"#)
                    }
                } catch {
                    TiltdLog.log(.warning("\(.controlVolume): \(error); the slider will not follow changes made elsewhere"))
                }
            }
            await cancelWhenGracefulShutdown {
                if let track = slider.track {
                    await Self.play(track, into: channels)
                } else {
                    try? await Task.sleep(for: .seconds(86_400 * 365))
                }
            }
            slider.meter?.stop()
            slider.volume?.close()
        }

        /// Posts the track's records at their times, from the start again
        /// when it ends, until cancelled.
        static func play(_ track: LevelTrack, into channels: WebChannelFeed) async {
            guard let first = track.records.first?.seconds, let last = track.records.last?.seconds else { return }
            // One window past the last record before the loop starts over.
            let period = last - first + 1 / Double(LevelTrack.updatesPerSecond)
            let clock = ContinuousClock()
            let start = clock.now
            var lap = 0
            while !Task.isCancelled {
                for record in track.records {
                    let due = start + .seconds(Double(lap) * period + record.seconds - first)
                    do { try await clock.sleep(until: due) } catch { return }
                    channels.post(WebLARSBar.levelsChannel, json: String(record.jsonLine.dropLast()))
                }
                lap += 1
            }
        }
    }
}

/// Passes live levels (on libpulse's thread) to the page's channels once
/// the server exists, and says when the audio server goes and comes back.
private final class LevelRelay: Sendable {
    private let channels = Mutex<WebChannelFeed?>(nil)

    func attach(_ feed: WebChannelFeed) { channels.withLock { $0 = feed } }

    func handle(_ event: LevelMeter.Event) {
        switch event {
        case let .levels(levels):
            channels.withLock { $0 }?.post(WebLARSBar.levelsChannel, json: String(levels.jsonLine.dropLast()))
        case let .lost(server, reason):
            TiltdLog.logger.warning("lost PulseAudio at \(server) (\(reason)); still serving, reconnecting")
        case let .reconnected(server):
            TiltdLog.logger.notice("reconnected to PulseAudio at \(server); levels flow again")
        }
    }
}
