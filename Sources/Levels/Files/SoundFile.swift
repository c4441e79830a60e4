/// An audio file open for reading through libsndfile; closes it in exactly
/// one place (deinit).
final class SoundFile {
    let path: String
    let sampleRateHertz: Int
    let channelCount: Int
    let frameCount: Int64
    private let handle: OpaquePointer

    /// - Throws: `LevelFileError.unreadable` or `.notAudio`.
    init(path: String) throws(LevelFileError) {
        switch LibSndFile.open(path: path) {
        case let .success(opened):
            handle = opened.handle
            sampleRateHertz = opened.sampleRateHertz
            channelCount = opened.channelCount
            frameCount = opened.frameCount
            self.path = path
        case let .failure(failure):
            // A file that cannot be read at all (missing, a directory) is
            // named so, whatever libsndfile made of it.
            if !failure.isFormat || LevelFileError.systemReason(reading: path) != nil { throw .unreadable(path: path) }
            throw .notAudio(path: path, reason: failure.message)
        }
    }

    deinit { LibSndFile.close(handle) }

    /// Reads up to `frames` interleaved frames into `buffer` (which holds at
    /// least `frames × channelCount` floats); returns the frames read, 0 at the end.
    ///
    /// - Throws: `LevelFileError.unreadable` when libsndfile reports an error.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(LevelFileError) -> Int {
        precondition(buffer.count >= frames * channelCount, "buffer too small for \(frames) frames")
        let read = LibSndFile.readFrames(handle, into: buffer, frames: frames)
        if read <= 0, LibSndFile.hasError(handle) { throw .unreadable(path: path) }
        return read
    }
}
