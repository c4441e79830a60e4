import Logging
import Motion

extension WebRingRecorder {
    /// Writes one reading of a hold, opening the trace at the first one
    /// (then it is known whether the readings carry gyro rates) and
    /// marking where a hold after the first starts, and where a looped
    /// replay starts over, with a `g` line.
    static func write(_ reading: Reading, into shared: inout Shared, directory: String, logger: Logger) throws {
        if shared.file == nil {
            var header = shared.header
            if reading.rotationRate != nil && header.gyro == nil { header.gyro = TraceGyroHeader() }
            shared.file = try WebRecordingFile(directory: directory, header: header, logger: logger)
        }
        guard let file = shared.file else { return }
        if let last = file.lastNanoseconds {
            if shared.holdSamples == 0 {
                file.appendGap(timestampNanoseconds: reading.timestampNanoseconds,
                               reason: "ring released; hold \(shared.ring.segments.count) starts")
            } else if reading.timestampNanoseconds < last {
                file.appendGap(timestampNanoseconds: reading.timestampNanoseconds, reason: "the replay started over")
            }
        }
        try file.append(reading)
        shared.holdSamples += 1
    }

    static let nothingRecorded = "nothing recorded: no motion arrived while the ring was held"

    /// Ends the recording: the ring takes no more presses until a reset. The
    /// trace is handed over to be completed (`complete`) outside the lock:
    /// its last lines written, its final name given, offered for download.
    static func finish(_ shared: inout Shared) {
        shared.closed = true
        guard let file = shared.file else {
            if shared.message.isEmpty { shared.message = nothingRecorded }
            return
        }
        shared.file = nil
        shared.toComplete.append(file)
    }

    /// Completes a finished recording (on a thread of its own, not the
    /// producer's or a viewer's): waits for its recorder to write the last
    /// lines, names it and offers it, then tells the viewers.
    func complete(_ file: WebRecordingFile) {
        let outcome: Result<WebRecordingFile.Finished, any Error>
        do {
            outcome = .success(try file.finish())
        } catch {
            outcome = .failure(error)
        }
        change { shared, _ in
            switch outcome {
            case .failure(let error):
                shared.message = "\(error)"
                logger.error("\(error)")
            case .success(let finished) where !finished.kept:
                if shared.message.isEmpty { shared.message = Self.nothingRecorded }
            case .success(let finished):
                shared.offered.append(file.name)
                shared.needsPrune = true
                if shared.offered.count > Self.maximumOffered { shared.offered.removeFirst() }
                let seconds = Double((file.lastNanoseconds ?? 0) - (file.firstNanoseconds ?? 0)) / 1e9
                let text = "recorded \(file.samplesKept) samples over \(JSONText.number(seconds, decimals: 3)) s"
                shared.message = shared.message.isEmpty ? text + " to \(file.name)" : shared.message + "; " + text
                logger.notice("\(text) to \(file.finalPath)")
                if let problem = finished.problem {
                    shared.message += "; " + problem
                    logger.warning("\(problem)")
                }
            }
            return true
        }
    }
}
