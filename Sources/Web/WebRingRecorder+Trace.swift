import Logging
import Motion

extension WebRingRecorder {
    /// Writes one reading of a hold, opening the trace at the first one
    /// (then it is known whether the readings carry gyro rates) and
    /// marking where a hold after the first starts, and where a looped
    /// replay starts over, with a `g` line.
    static func write(_ reading: Reading, into shared: inout Shared, directory: String) throws {
        if shared.file == nil {
            var header = shared.header
            if reading.rotationRate != nil && header.gyro == nil { header.gyro = TraceGyroHeader() }
            shared.file = try WebRecordingFile(directory: directory, header: header)
        }
        guard let file = shared.file else { return }
        if let last = file.lastNanoseconds {
            if shared.holdSamples == 0 {
                try file.appendGap(timestampNanoseconds: reading.timestampNanoseconds,
                                   reason: "ring released; hold \(shared.ring.segments.count) starts")
            } else if reading.timestampNanoseconds < last {
                try file.appendGap(timestampNanoseconds: reading.timestampNanoseconds, reason: "the replay started over")
            }
        }
        try file.append(reading)
        shared.holdSamples += 1
    }

    /// Ends the recording: the ring takes no more presses until a reset,
    /// the trace gets its final name and is offered for download.
    static func finish(_ shared: inout Shared, logger: Logger) {
        shared.closed = true
        guard let file = shared.file else {
            if shared.message.isEmpty { shared.message = "nothing recorded: no motion arrived while the ring was held" }
            return
        }
        shared.file = nil
        do {
            guard try file.finish() else {
                shared.message = "nothing recorded: no motion arrived while the ring was held"
                return
            }
            shared.offered.append(file.name)
            shared.needsPrune = true
            if shared.offered.count > maximumOffered { shared.offered.removeFirst() }
            let seconds = Double((file.lastNanoseconds ?? 0) - (file.firstNanoseconds ?? 0)) / 1e9
            let text = "recorded \(file.samples) samples over \(JSONText.number(seconds, decimals: 3)) s"
            shared.message = shared.message.isEmpty ? text + " to \(file.name)" : shared.message + "; " + text
            logger.notice("\(text) to \(file.finalPath)")
        } catch {
            shared.message = "\(error)"
            logger.error("\(error)")
        }
    }
}
