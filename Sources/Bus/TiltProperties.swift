import Knob
import Motion

/// The values of net.tiltd.Tilt1's properties at one moment.
public struct TiltProperties: Sendable, Equatable {
    /// The service's well-known name, object path and interface.
    public static let busName = "net.tiltd.Tilt"
    public static let objectPath = "/net/tiltd/Tilt"
    public static let interface = "net.tiltd.Tilt1"

    /// Every property, in the order of the vtable and of PropertiesChanged.
    public static let names = ["HasAccelerometer", "HasGyroscope", "Orientation", "Tilt", "Roll", "Pitch",
                               "Shine", "Timestamp", "Device", "Facing"] + motionNames
    /// The device motion's properties (`DeviceMotion`; the JSON Lines'
    /// attitude … gyroBias): empty arrays and false without a gyro fused.
    public static let motionNames = ["Attitude", "Gravity", "UserAcceleration", "RotationRate", "Rest", "GyroBias"]

    public var hasAccelerometer: Bool
    public var hasGyroscope: Bool
    /// The accelerometer in use ("iio:device0 (accel_3d)"), or "" if none.
    public var device: String
    /// The newest state that passed the gate, nil before the first.
    public var state: KnobState?

    public init(hasAccelerometer: Bool = false, hasGyroscope: Bool = false, device: String = "",
                state: KnobState? = nil) {
        self.hasAccelerometer = hasAccelerometer
        self.hasGyroscope = hasGyroscope
        self.device = device
        self.state = state
    }

    /// Property `name`'s value (before the first state: undefined, vertical,
    /// zero angles, the knob at rest, timestamp 0).
    public func value(of name: String) -> BusValue? {
        let tilt = state?.tilt
        switch name {
        case "HasAccelerometer": return .bool(hasAccelerometer)
        case "HasGyroscope": return .bool(hasGyroscope)
        case "Orientation": return .string(tilt?.orientation?.rawValue ?? "undefined")
        case "Tilt": return .string(tilt.map { TiltPosition(roll: $0.roll, pitch: $0.pitch) }?.rawValue ?? "vertical")
        case "Roll": return .double(tilt?.roll ?? 0)
        case "Pitch": return .double(tilt?.pitch ?? 0)
        case "Shine":
            let shines = state?.shines ?? .rest
            return .pairs([BusValue.Pair(shines.first.rotation, shines.first.opacity),
                           BusValue.Pair(shines.second.rotation, shines.second.opacity)])
        case "Timestamp": return .uint64(UInt64(clamping: tilt?.timestampNanoseconds ?? 0))
        case "Device": return .string(device)
        case "Facing": return .string(tilt?.facing?.rawValue ?? "")
        default: return motionValue(of: name, tilt?.motion)
        }
    }

    /// A device motion property's value (nil for another name).
    func motionValue(of name: String, _ motion: DeviceMotion?) -> BusValue? {
        func vector(_ v: SIMD3<Double>?) -> BusValue { .doubles(v.map { [$0.x, $0.y, $0.z] } ?? []) }
        switch name {
        case "Attitude": return .doubles(motion.map { [$0.attitude.w, $0.attitude.x, $0.attitude.y, $0.attitude.z] } ?? [])
        case "Gravity": return vector(motion?.gravity)
        case "UserAcceleration": return vector(motion?.userAcceleration)
        case "RotationRate": return vector(motion?.rotationRate)
        case "Rest": return .bool(motion?.isResting ?? false)
        case "GyroBias": return vector(motion?.gyroBias)
        default: return nil
        }
    }

    /// The properties whose values differ from `previous`, with their new values.
    public func changes(since previous: TiltProperties) -> [(String, BusValue)] {
        TiltProperties.names.compactMap { name in
            guard let now = value(of: name), now != previous.value(of: name) else { return nil }
            return (name, now)
        }
    }
}
