import Motion
import Wording
/// What a running `CaptureLoop` reports, on its capture thread.
public enum CaptureEvent: Sendable {
    /// A device was opened (first time, or again after a fault).
    case opened(CaptureStatus)
    /// The capture goes on with a changed status: its gyroscope was lost
    /// (the samples that follow carry no rotation rate).
    case statusChanged(CaptureStatus)
    /// One sample.
    case sample(CapturedSample)
    /// The samples of one wake-up of a paced capture (`Setting.latency`)
    /// have all been delivered: what consumers held back for the batch can
    /// go out together.
    case batchEnd
    /// A one-line message for the user: a fallback to polling, a raised
    /// rate, a device that came back.
    case notice(Diagnostic)
    /// The device failed or vanished; samples stop until it is reopened.
    /// `timestampNanoseconds` is on the samples' clock, after the last sample.
    case fault(String, timestampNanoseconds: Int64)
}
