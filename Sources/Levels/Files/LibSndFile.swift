import CSndFile

/// Every raw libsndfile call tiltd makes, and nothing else; `SoundFile`
/// owns the handle and `LevelFileError` words the failures.
enum LibSndFile {
    /// The opened file's handle and layout.
    struct Opened {
        var handle: OpaquePointer
        var frameCount: Int64
        var sampleRateHertz: Int
        var channelCount: Int
    }

    /// Opens `path` for reading; on failure, libsndfile's own message
    /// (shown only for a format it does not decode).
    /// The corresponding C function is `sf_open`.
    static func open(path: String) -> Result<Opened, SoundFileFailure> {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let code = sf_error(nil)
            let message = String(cString: sf_strerror(nil))
            // Only SF_ERR_SYSTEM is the file itself (missing, unreadable);
            // every other code, public (SF_ERR_UNRECOGNISED_FORMAT, …) or
            // internal ("Channel count is zero", "SF_INFO struct
            // incomplete" for a header saying 0 Hz), is about its contents.
            let isFormat = code != Int32(SF_ERR_SYSTEM)
            return .failure(SoundFileFailure(message: message, isFormat: isFormat))
        }
        return .success(Opened(handle: handle, frameCount: info.frames,
                               sampleRateHertz: Int(info.samplerate), channelCount: Int(info.channels)))
    }

    /// Reads up to `frames` interleaved float frames (−1…1) into `buffer`;
    /// returns the frames read (0 at the end). The C function is `sf_readf_float`.
    static func readFrames(_ handle: OpaquePointer, into buffer: UnsafeMutableBufferPointer<Float>,
                           frames: Int) -> Int {
        Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames)))
    }

    /// Whether the last call on `handle` failed (a short read at the end of
    /// the file is not a failure). The C function is `sf_error`.
    static func hasError(_ handle: OpaquePointer) -> Bool {
        sf_error(handle) != 0
    }

    /// Closes the file. Only `SoundFile.deinit` calls this.
    static func close(_ handle: OpaquePointer) {
        sf_close(handle)
    }

    /// Makes the descriptor `fd` (a file just created, open for writing) a
    /// 16-bit PCM WAV file; libsndfile closes it with the handle. On
    /// failure, libsndfile's own message. The C function is `sf_open_fd`
    /// (`SFM_WRITE`).
    static func createWAV(descriptor fd: Int32, sampleRateHertz: Int, channelCount: Int) -> Result<OpaquePointer, SoundFileFailure> {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRateHertz)
        info.channels = Int32(channelCount)
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let handle = sf_open_fd(fd, Int32(SFM_WRITE), &info, 1) else {
            return .failure(SoundFileFailure(message: String(cString: sf_strerror(nil)), isFormat: false))
        }
        return .success(handle)
    }

    /// Writes interleaved float frames (−1…1); returns the frames written.
    /// The C function is `sf_writef_float`.
    static func writeFrames(_ handle: OpaquePointer, _ samples: UnsafeBufferPointer<Float>, frames: Int) -> Int {
        Int(sf_writef_float(handle, samples.baseAddress, sf_count_t(frames)))
    }

    /// Closes a file being written, flushing it; false when that failed.
    /// The C function is `sf_close`.
    static func finishWriting(_ handle: OpaquePointer) -> Bool {
        sf_close(handle) == 0
    }
}
