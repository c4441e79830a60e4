import Knob
import SamplePath

/// The ring is a consumer of serve's hub: it records every sample's reading.
extension WebRingRecorder: StateSink {
    public var wantsEverySample: Bool { true }
    public func take(_ sample: PublishedSample) { record(sample.reading) }
    public func emit(_ state: EncodedState) {}
}
