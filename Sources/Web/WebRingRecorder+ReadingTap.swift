import Motion
import Streaming

/// The ring records every reading the serve's sample run takes.
extension WebRingRecorder: ReadingTap {
    public func take(_ reading: Reading) { record(reading) }
}
