import Knob
import Motion

/// How `tiltd monitor` prints what it sees: a readable line per change, or
/// one JSON object per line (`Setting.json`) in the same number format as
/// `tiltd run`, with `tilt` added.
public enum TiltMonitorFormat: Sendable {
    case text
    case json

    /// The line for the service appearing with `values` (its GetAll).
    func appeared(owner: String, bus: String, _ values: [String: BusValue]) -> String {
        let device = TiltMonitorFormat.string(values["Device"]) ?? ""
        let accelerometer = TiltMonitorFormat.bool(values["HasAccelerometer"]) ?? false
        let gyroscope = TiltMonitorFormat.bool(values["HasGyroscope"]) ?? false
        switch self {
        case .text:
            return "=== \(TiltProperties.busName) appeared on \(bus) (\(owner)): accelerometer "
                + (accelerometer ? (device.isEmpty ? "yes" : device) : "none")
                + ", gyroscope " + (gyroscope ? "yes" : "none")
        case .json:
            return "{\"event\":\"appeared\",\"owner\":\"\(owner.jsonEscaped)\","
                + "\"device\":\"\(device.jsonEscaped)\","
                + "\"accelerometer\":\(accelerometer),\"gyroscope\":\(gyroscope)}"
        }
    }

    /// The line for the service leaving the bus.
    func vanished(bus: String) -> String {
        switch self {
        case .text: "=== \(TiltProperties.busName) left \(bus): waiting for it to return"
        case .json: #"{"event":"vanished"}"#
        }
    }

    /// The line for one state (all current values, merged).
    func state(_ values: [String: BusValue]) -> String {
        let knob = TiltMonitorFormat.knobState(values)
        let tilt = TiltMonitorFormat.string(values["Tilt"]) ?? "vertical"
        switch self {
        case .text:
            var line: [UInt8] = Array("t ".utf8)
            JSONNumber.appendFixed(nanoseconds: knob.tilt.timestampNanoseconds, to: &line)
            line += Array("  roll ".utf8)
            JSONNumber.append(knob.tilt.roll, decimals: 4, to: &line)
            line += Array("  pitch ".utf8)
            JSONNumber.append(knob.tilt.pitch, decimals: 4, to: &line)
            return String(decoding: line, as: UTF8.self)
                + "  orientation \(knob.tilt.facing?.rawValue ?? knob.tilt.orientation?.rawValue ?? "undefined")  tilt \(tilt)"
        case .json:
            let record = EncodedState(knob).record(withFields: Array(#","tilt":""#.utf8) + Array(tilt.jsonEscaped.utf8) + [UInt8(ascii: "\"")])
            return String(decoding: record, as: UTF8.self)
        }
    }

    /// A knob state rebuilt from the service's Roll, Pitch, Orientation,
    /// Facing, Timestamp, Shine and device motion: the state `tiltd run`
    /// wrote, field for field.
    static func knobState(_ values: [String: BusValue]) -> KnobState {
        let orientation = string(values["Orientation"]).flatMap(ScreenOrientation.init(rawValue:))
        var timestamp: UInt64 = 0
        if case .uint64(let t)? = values["Timestamp"] { timestamp = t }
        let facing = string(values["Facing"]).flatMap(Facing.init(rawValue:))
        let tilt = TiltState(timestampNanoseconds: Int64(clamping: timestamp), roll: double(values["Roll"]) ?? 0,
                             pitch: double(values["Pitch"]) ?? 0, orientation: orientation, facing: facing,
                             motion: motion(values))
        guard case .pairs(let pairs)? = values["Shine"], pairs.count == 2 else { return KnobState(tilt: tilt) }
        return KnobState(tilt: tilt, shines: ShinePair(first: Shine(rotation: pairs[0].first, opacity: pairs[0].second),
                                                       second: Shine(rotation: pairs[1].first, opacity: pairs[1].second)))
    }

    /// The device motion from its properties, nil when the service has none.
    static func motion(_ values: [String: BusValue]) -> DeviceMotion? {
        func vector(_ name: String) -> SIMD3<Double>? {
            guard case .doubles(let v)? = values[name], v.count == 3 else { return nil }
            return SIMD3(v[0], v[1], v[2])
        }
        guard case .doubles(let q)? = values["Attitude"], q.count == 4, let gravity = vector("Gravity"),
              let user = vector("UserAcceleration"), let rate = vector("RotationRate"),
              let bias = vector("GyroBias") else { return nil }
        return DeviceMotion(attitude: SIMD4(q[1], q[2], q[3], q[0]), gravity: gravity, userAcceleration: user,
                            rotationRate: rate, isResting: bool(values["Rest"]) ?? false, gyroBias: bias)
    }

    private static func string(_ value: BusValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private static func bool(_ value: BusValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }

    private static func double(_ value: BusValue?) -> Double? {
        if case .double(let number)? = value { return number }
        return nil
    }
}
