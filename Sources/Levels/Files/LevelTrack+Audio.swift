extension LevelTrack {
    /// Samples read per `sf_readf_float` call at most (all channels): the
    /// decoding buffer is this size whatever the file's header declares
    /// (libsndfile allows 1024 channels at any rate up to 2³¹−1 Hz).
    static let readBufferSamples = 1 << 16

    /// Records reserved up front at most: a header's frame count (libsndfile
    /// gives `SF_COUNT_MAX` for an Ogg of unknown length) only hints the
    /// size; the records grow past this as the audio really decodes.
    static let reservedRecordsLimit = 1 << 16

    /// Levels of an audio file, one record per 1/144 s window.
    ///
    /// Each window's mean square per channel feeds a `LevelSmoother` (the
    /// original's dB = 10·log10(mean square), smoothing and mapping); the
    /// record's time is the window's end, when its level is known. Mono
    /// files drive both channels; with more than two channels the first is
    /// left and the second right. Below 144 frames/s a window lies within a
    /// frame: it shows the frame it starts in (`decodeSlowAudio`).
    ///
    /// Memory is bounded whatever the header says: frames are read in
    /// blocks of at most `readBufferSamples` samples, and the frame count
    /// only sizes the first reservation (at most `reservedRecordsLimit`).
    ///
    /// - Throws: `LevelFileError` when the file cannot be read or decoded,
    ///   or holds no frames.
    public static func decodeAudio(path: String) throws(LevelFileError) -> LevelTrack {
        let file = try SoundFile(path: path)
        guard file.sampleRateHertz > 0, file.channelCount > 0 else { throw .empty(path: path) }
        let records = file.sampleRateHertz < updatesPerSecond ? try decodeSlowAudio(file)
                                                              : try decodeWindows(file)
        guard !records.isEmpty else { throw .empty(path: path) }
        return LevelTrack(records: records)
    }

    /// The records to reserve for `frameCount` frames at `rateHertz`: the
    /// windows they fill, at most `reservedRecordsLimit` (0 for no count).
    static func reservedRecords(frameCount: Int64, rateHertz: Int) -> Int {
        guard frameCount > 0, rateHertz > 0 else { return 0 }
        let windows = frameCount / Int64(max(rateHertz / updatesPerSecond, 1)) + 1
        return Int(min(windows, Int64(reservedRecordsLimit)))
    }

    /// Window k covers frames [k·rate/144, (k+1)·rate/144): exact over the
    /// whole file even when 144 does not divide the rate (44100 Hz). A
    /// window's frames are read in blocks and summed.
    private static func decodeWindows(_ file: SoundFile) throws(LevelFileError) -> [ChannelLevels] {
        let rate = file.sampleRateHertz, channels = file.channelCount
        let blockFrames = max(readBufferSamples / channels, 1)
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var left = LevelSmoother(), right = LevelSmoother()
        var records: [ChannelLevels] = []
        records.reserveCapacity(reservedRecords(frameCount: file.frameCount, rateHertz: rate))
        var window = 0, framesDone = 0, atEnd = false
        while !atEnd {
            let end = (window + 1) * rate / updatesPerSecond
            var sums = (left: 0.0, right: 0.0), windowFrames = 0
            while framesDone < end {
                let wanted = min(end - framesDone, blockFrames)
                let read = try buffer.withUnsafeMutableBufferPointer { (samples) throws(LevelFileError) in
                    try file.read(into: samples, frames: wanted)
                }
                if read == 0 { atEnd = true; break }
                buffer.withUnsafeBufferPointer { addSquares(of: $0, frames: read, channels: channels, to: &sums) }
                framesDone += read
                windowFrames += read
            }
            guard windowFrames > 0 else { break }
            let frames = Double(windowFrames)
            records.append(ChannelLevels(seconds: Double(framesDone) / Double(rate),
                                         left: left.update(meanSquare: sums.left / frames),
                                         right: right.update(meanSquare: sums.right / frames)))
            window += 1
        }
        return records
    }

    /// Audio below 144 frames/s (a sensor log, a test tone): still 144
    /// records a second. Window k shows the frame it starts in,
    /// ⌊k·rate/144⌋, and ends at (k+1)/144 s, or at the file's end.
    private static func decodeSlowAudio(_ file: SoundFile) throws(LevelFileError) -> [ChannelLevels] {
        let rate = file.sampleRateHertz, channels = file.channelCount
        var frame = [Float](repeating: 0, count: channels)
        var left = LevelSmoother(), right = LevelSmoother()
        var records: [ChannelLevels] = []
        records.reserveCapacity(reservedRecords(frameCount: file.frameCount, rateHertz: rate))
        var window = 0, framesRead = 0, squares = (left: 0.0, right: 0.0)
        while true {
            if window * rate / updatesPerSecond == framesRead {
                let read = try frame.withUnsafeMutableBufferPointer { (samples) throws(LevelFileError) in
                    try file.read(into: samples, frames: 1)
                }
                if read == 0 { break }
                framesRead += 1
                squares = (0, 0)
                frame.withUnsafeBufferPointer { addSquares(of: $0, frames: 1, channels: channels, to: &squares) }
            }
            let seconds = min(Double(window + 1) / Double(updatesPerSecond), Double(framesRead) / Double(rate))
            records.append(ChannelLevels(seconds: seconds, left: left.update(meanSquare: squares.left),
                                         right: right.update(meanSquare: squares.right)))
            window += 1
        }
        return records
    }

    /// Adds the squares of the left and right channels of `frames`
    /// interleaved frames (mono: the one channel for both) to `sums`.
    static func addSquares(of samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int,
                           to sums: inout (left: Double, right: Double)) {
        let rightOffset = channels > 1 ? 1 : 0
        for frame in 0..<frames {
            let base = frame * channels
            let l = Double(samples[base]), r = Double(samples[base + rightOffset])
            sums.left += l * l
            sums.right += r * r
        }
    }
}
