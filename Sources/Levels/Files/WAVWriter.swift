import Glibc
import Knob
import Platform

/// Writes audio as a 16-bit PCM WAV file through libsndfile: tones for
/// level-file demos and tests (a known signal whose levels are known).
///
/// The file is written whole: libsndfile writes a hidden temporary file
/// beside it (`FileReplacement.createTemporary`: exclusive, never through
/// a link), which is then renamed over `path`.
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
        let fd: Int32, temporary: String
        do { (fd, temporary) = try FileReplacement.createTemporary(for: path) } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        let handle: OpaquePointer
        switch LibSndFile.createWAV(descriptor: fd, sampleRateHertz: sampleRateHertz, channelCount: channelCount) {
        case let .success(opened): handle = opened
        case let .failure(failure):
            // libsndfile has closed `fd` already (close_desc: on failure too).
            unlink(temporary)
            throw .unwritable(path: path, reason: failure.message)
        }
        let frames = samples.count / channelCount
        let written = samples.withUnsafeBufferPointer { LibSndFile.writeFrames(handle, $0, frames: frames) }
        let closed = LibSndFile.finishWriting(handle)
        guard written == frames, closed else {
            unlink(temporary)
            throw .unwritable(path: path, reason: "wrote \(written) of \(frames) frames")
        }
        do { try FileReplacement.commit(temporary, as: path) } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }
}
