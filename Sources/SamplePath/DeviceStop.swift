/// Why a live device stopped delivering samples, as the sample path tells
/// every consumer (`StateSink.deviceStopped`); `captureStatus` follows when
/// it opens again.
public enum DeviceStop: Sendable, Equatable {
    /// Released: nobody wants states (`Setting.onDemand`, the last D-Bus
    /// claim gone); it opens again on the next demand.
    case released
    /// Lost: it failed or vanished (the message says how); the capture
    /// reopens it when it can.
    case lost(String)
}
