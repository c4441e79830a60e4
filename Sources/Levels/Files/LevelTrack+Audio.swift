extension LevelTrack {
    /// Levels of an audio file, one record per 1/144 s window.
    ///
    /// Each window's mean square per channel feeds a `LevelSmoother` (the
    /// original's dB = 10·log10(mean square), smoothing and mapping); the
    /// record's time is the window's end, when its level is known. Mono
    /// files drive both channels; with more than two channels the first is
    /// left and the second right.
    ///
    /// - Throws: `LevelFileError` when the file cannot be read or decoded,
    ///   or holds no frames.
    public static func decodeAudio(path: String) throws(LevelFileError) -> LevelTrack {
        let file = try SoundFile(path: path)
        guard file.sampleRateHertz > 0, file.channelCount > 0 else { throw .empty(path: path) }
        let rate = file.sampleRateHertz, channels = file.channelCount
        // Window k covers frames [k·rate/144, (k+1)·rate/144): exact over the
        // whole file even when 144 does not divide the rate (44100 Hz).
        let largestWindow = (rate + updatesPerSecond - 1) / updatesPerSecond
        var buffer = [Float](repeating: 0, count: largestWindow * channels)
        var left = LevelSmoother(), right = LevelSmoother()
        var records: [ChannelLevels] = []
        if file.frameCount > 0 {
            records.reserveCapacity(Int(file.frameCount) / max(rate / updatesPerSecond, 1) + 1)
        }
        var window = 0, framesDone = 0
        while true {
            let end = (window + 1) * rate / updatesPerSecond
            let wanted = end - framesDone
            let read = try buffer.withUnsafeMutableBufferPointer { (samples) throws(LevelFileError) in
                try file.read(into: samples, frames: wanted)
            }
            if read == 0 { break }
            let squares = buffer.withUnsafeBufferPointer {
                meanSquares(of: $0, frames: read, channels: channels)
            }
            framesDone += read
            let seconds = Double(framesDone) / Double(rate)
            records.append(ChannelLevels(seconds: seconds, left: left.update(meanSquare: squares.left),
                                         right: right.update(meanSquare: squares.right)))
            if read < wanted { break }
            window += 1
        }
        guard !records.isEmpty else { throw .empty(path: path) }
        return LevelTrack(records: records)
    }

    /// The mean squares of the left and right channels of `frames`
    /// interleaved frames (mono: the one channel for both).
    static func meanSquares(of samples: UnsafeBufferPointer<Float>, frames: Int,
                            channels: Int) -> (left: Double, right: Double) {
        var sumLeft = 0.0, sumRight = 0.0
        let rightOffset = channels > 1 ? 1 : 0
        for frame in 0..<frames {
            let base = frame * channels
            let l = Double(samples[base]), r = Double(samples[base + rightOffset])
            sumLeft += l * l
            sumRight += r * r
        }
        let count = Double(max(frames, 1))
        return (sumLeft / count, sumRight / count)
    }
}
