/// The line printed when a capture opens its device.
extension CaptureStatus {
    public var openedMessage: String {
        if let pad {
            let clock = pad.hasTimestamp ? "the pad's MSC_TIMESTAMP" : "event-time"
            return "reading \(pad.displayName) through evdev (\(pad.usbID), \(pad.mountMatrixSourceText)) "
                + "with \(clock) timestamps"
        }
        return "reading \(info.displayName) at \(info.uri) in \(mode.rawValue) mode at "
            + "\(CaptureRate.attributeText(rateHertz)) Hz with \(clock) timestamps"
            + (gyro.map { ", with the gyroscope \($0.displayName) (\($0.pairing.rawValue))" } ?? "")
            + (rotation.map { ", angles from the fused rotation \($0.displayName)" } ?? "")
    }
}
