/// Levels over time from a file, for demos, tests and rendering: the one
/// type a renderer asks "what are the levels at t?".
///
/// A track comes from a WAV file (levels computed per 1/144 s window with the
/// LARSBar smoothing, as the live meter does) or from a levels JSON Lines
/// file (`{"t":…,"left":…,"right":…}` per line, as `tiltd levels` writes).
public struct LevelTrack: Sendable, Equatable {
    /// Updates per second of a track decoded from audio (pavucontrol's meter rate).
    public static let updatesPerSecond = 144

    /// The records, `seconds` never decreasing.
    public let records: [ChannelLevels]

    /// - Parameter records: levels in time order (not checked here; the
    ///   file loaders reject files out of order).
    public init(records: [ChannelLevels]) {
        self.records = records
    }

    /// The last record's time, in seconds (0 for an empty track).
    public var durationSeconds: Double { records.last?.seconds ?? 0 }

    /// The levels shown at `seconds`: the latest record at or before it
    /// (levels hold until the next update), silence before the first.
    public func levels(atSeconds seconds: Double) -> ChannelLevels {
        // Binary search for the first record after `seconds`.
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].seconds <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return ChannelLevels(seconds: seconds, left: 0, right: 0) }
        var found = records[low - 1]
        found.seconds = seconds
        return found
    }

    /// Loads a track: `*.jsonl` as levels JSON Lines, anything else as audio
    /// through libsndfile (WAV, FLAC, Ogg, …).
    ///
    /// - Throws: `LevelFileError` naming the file (and line) and what to do.
    public static func load(path: String) throws(LevelFileError) -> LevelTrack {
        if path.lowercased().hasSuffix(".jsonl") { return try decodeJSONLines(path: path) }
        return try decodeAudio(path: path)
    }
}
