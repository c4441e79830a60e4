import Glibc
import Knob
import KnobPNG

/// Writes audio as a 16-bit PCM WAV file through libsndfile: tones for
/// level-file demos and tests (a known signal whose levels are known).
///
/// The file is written whole: libsndfile writes a hidden temporary file
/// beside it (`PNGWriter.createTemporary`: exclusive, never through a
/// link), which is then renamed over `path`.
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
        // Created exclusively, never through a link (PNGWriter.createTemporary).
        let fd: Int32, temporary: String
        do { (fd, temporary) = try PNGWriter.createTemporary(for: path) } catch let error as PNGError {
            throw .unwritable(path: path, reason: error.reason)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
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
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }
}
