import Glibc
import Knob
import KnobPNG

/// Writes audio as a 16-bit PCM WAV file through libsndfile: tones for
/// level-file demos and tests (a known signal whose levels are known).
///
/// The file is written whole: libsndfile writes a hidden temporary file
/// beside it (`PNGWriter.temporaryPath`), which is then renamed over `path`.
public enum WAVWriter {
    /// - Parameters:
    ///   - samples: interleaved samples, −1…1 (clipped by libsndfile's
    ///     conversion), `frames × channelCount` of them.
    ///   - channelCount: channels per frame, at least 1.
    ///   - sampleRateHertz: frames per second.
    ///   - path: the file to write.
    /// - Throws: `LevelFileError.unwritable` naming the file and the reason.
    public static func write(_ samples: [Float], channelCount: Int, sampleRateHertz: Int,
                             to path: String) throws(LevelFileError) {
        precondition(channelCount > 0 && samples.count % channelCount == 0, "samples must be whole frames")
        let temporary = PNGWriter.temporaryPath(for: path)
        let handle: OpaquePointer
        switch LibSndFile.createWAV(path: temporary, sampleRateHertz: sampleRateHertz, channelCount: channelCount) {
        case let .success(opened): handle = opened
        case let .failure(failure): throw .unwritable(path: path, reason: failure.message)
        }
        let frames = samples.count / channelCount
        let written = samples.withUnsafeBufferPointer { LibSndFile.writeFrames(handle, $0, frames: frames) }
        let closed = LibSndFile.finishWriting(handle)
        guard written == frames, closed else {
            unlink(temporary)
            throw .unwritable(path: path, reason: "wrote \(written) of \(frames) frames")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }
}
