import Foundation
import Levels
import Motion
import SamplePath
import ServiceLifecycle
import Web

/// The LARSBar slider of `tiltd serve`, wired: where its levels come from
/// (a live PulseAudio meter or a level file), and when the page may set it
/// the default sink's volume both ways. Everything that can fail at start
/// (no audio server, a bad file) fails in `prepare`, before the page is
/// announced.
public final class ServeSlider: Service, Sendable {
    /// Where the slider's levels come from and whether it sets the volume
    /// (the LARSBar options of `tiltd serve`).
    public struct Settings: Sendable, Equatable {
        /// Meter what the machine plays (PulseAudio or pipewire-pulse).
        public var liveLevels: Bool
        /// With `liveLevels`: the PulseAudio source; nil: the default output's monitor.
        public var levelsSource: String?
        /// Replay levels from this file (WAV or levels JSON Lines), looping.
        public var levelsFile: String?
        /// The page's slider sets the default sink's volume.
        public var controlVolume: Bool

        /// Settings that do not go together.
        public enum Invalid: Error, Sendable, Equatable {
            /// Live levels and a level file at once.
            case liveLevelsAndFile(file: String)
            /// A level file with an empty name.
            case emptyFileName
            /// A live source without live levels.
            case sourceWithoutLiveLevels(source: String)
            /// A live source with an empty name.
            case emptySourceName
        }

        /// Checks that the settings go together.
        ///
        /// - Throws: `Invalid` naming what does not go together.
        public init(liveLevels: Bool = false, levelsSource: String? = nil, levelsFile: String? = nil,
                    controlVolume: Bool = false) throws(Invalid) {
            if liveLevels, let levelsFile { throw .liveLevelsAndFile(file: levelsFile) }
            if let levelsFile, levelsFile.isEmpty { throw .emptyFileName }
            if let levelsSource {
                guard liveLevels else { throw .sourceWithoutLiveLevels(source: levelsSource) }
                if levelsSource.isEmpty { throw .emptySourceName }
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
    private let feed: WebStateFeed
    private let meter: LevelMeter?
    private let track: LevelTrack?
    private let volume: SinkVolumeControl?

    /// Opens the level source and the volume control the options ask for;
    /// the levels and the value go to `feed`'s channels.
    ///
    /// - Throws: `ServeError` naming the file or audio server and what to do.
    public static func prepare(_ options: Settings, posting feed: WebStateFeed) async throws -> ServeSlider? {
        guard options.showsSlider else { return nil }
        var track: LevelTrack?
        if let path = options.levelsFile {
            do { track = try LevelTrack.load(path: path) } catch {
                throw ServeError("\(.levelsFile): \(error)")
            }
        }
        var meter: LevelMeter?
        if options.liveLevels {
            do {
                let live = try LevelMeter(source: options.levelsSource) { relay($0, to: feed) }
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
        return ServeSlider(bar: bar, input: input, feed: feed, meter: meter, track: track, volume: volume)
    }

    private init(bar: WebLARSBar, input: WebInputControls, feed: WebStateFeed, meter: LevelMeter?,
                 track: LevelTrack?, volume: SinkVolumeControl?) {
        self.bar = bar
        self.input = input
        self.feed = feed
        self.meter = meter
        self.track = track
        self.volume = volume
    }

    /// Feeds the page's channels until shutdown, then stops the meter and
    /// the volume control.
    public func run() async throws {
        if let volume {
            do {
                try await volume.subscribe { [feed] sink in
                    feed.post(WebLARSBar.valueChannel, json: #"{"value":\#(sink.fraction),"muted":\#(sink.muted)}"#)
                }
            } catch {
                TiltdLog.log(.warning("\(.controlVolume): \(error); the slider will not follow changes made elsewhere"))
            }
        }
        await cancelWhenGracefulShutdown { [feed, track] in
            if let track {
                await Self.play(track, into: feed)
            } else {
                try? await Task.sleep(for: .seconds(86_400 * 365))
            }
        }
        meter?.stop()
        volume?.close()
    }

    /// Posts the track's records at their times, from the start again
    /// when it ends, until cancelled.
    private static func play(_ track: LevelTrack, into feed: WebStateFeed) async {
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
                feed.post(WebLARSBar.levelsChannel, json: String(record.jsonLine.dropLast()))
            }
            lap += 1
        }
    }

    /// Passes live levels (on libpulse's thread) to the page's channels,
    /// and says when the audio server goes and comes back.
    private static func relay(_ event: LevelMeter.Event, to feed: WebStateFeed) {
        switch event {
        case let .levels(levels):
            feed.post(WebLARSBar.levelsChannel, json: String(levels.jsonLine.dropLast()))
        case let .lost(server, reason):
            TiltdLog.logger.warning("lost PulseAudio at \(server) (\(reason)); still serving, reconnecting")
        case let .reconnected(server):
            TiltdLog.logger.notice("reconnected to PulseAudio at \(server); levels flow again")
        }
    }
}
