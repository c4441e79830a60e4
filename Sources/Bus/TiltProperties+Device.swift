import Devices
import Motion
import Wording

extension TiltProperties {
    /// The initial properties of a service for the accelerometer `query`
    /// (nil: the display one) at libiio context `uri`: HasAccelerometer and
    /// Device when it can be found now, HasGyroscope when a usable gyroscope
    /// is paired with it and `gyro` (no `Setting.noGyro`). A device missing at
    /// start is not an error (opening it or the first state sets
    /// HasAccelerometer); `report` hears why.
    public static func lookingAt(uri: String, device query: String?, gyro: Bool = true,
                                 report: (Diagnostic) -> Void) -> TiltProperties {
        var properties = TiltProperties()
        do {
            let context = try IIOContext(uri: uri)
            var skipped: [any Error] = []
            let found = try context.accelerometers(skipped: &skipped)
            let chosen = try AccelerometerSelector(query: query)
                .choose(from: found, uri: uri, deviceCount: context.deviceCount)
            properties.hasAccelerometer = true
            properties.device = found[chosen].displayName
            properties.hasGyroscope = gyro && found[chosen].gyro != nil && found[chosen].gyroProblem == nil
        } catch {
            report(.notice("D-Bus: HasAccelerometer is false for now: \(error)"))
        }
        return properties
    }
}
