import Motion

/// A tilt state together with the shines it produces: what every renderer
/// (stdout, the Unix socket, the web page, the rasterizer) consumes.
public struct KnobState: Sendable, Equatable {
    public var tilt: TiltState
    public var shines: ShinePair

    public init(tilt: TiltState) {
        self.tilt = tilt
        self.shines = ShinePair(roll: tilt.roll, pitch: tilt.pitch)
    }

    public init(tilt: TiltState, shines: ShinePair) {
        self.tilt = tilt
        self.shines = shines
    }
}

extension KnobState {
    /// Appends this state as one JSON Lines record, newline included:
    ///
    ///     {"t":12.345678,"roll":0.1234,"pitch":0.4567,"orientation":"normal",
    ///      "shine":[{"rotation":0.3333,"opacity":1},{"rotation":-0.5801,"opacity":0.8766}]}
    ///
    /// With a gyro fused (`TiltState.motion`) the record goes on, after
    /// "shine", with the device motion (README, "Output"):
    ///
    ///     "attitude":[w,x,y,z],"gravity":[x,y,z],"userAcceleration":[x,y,z],
    ///     "rotationRate":[x,y,z],"rest":false,"gyroBias":[x,y,z]
    ///
    /// (attitude 5 decimals, gravity and userAcceleration in g and
    /// rotationRate in rad/s 4, gyroBias in rad/s 6); without, the line is
    /// byte for byte what it was before them.
    ///
    /// `t` is seconds with 6 decimals; angles, rotations and opacities have 4
    /// decimals with trailing zeros dropped. Written by hand into a byte
    /// buffer: JSONEncoder and String(format:) cost microseconds a line, and
    /// replaying a million samples must take well under a second. The line
    /// is formatted in a stack buffer and appended with one copy, since many
    /// small `Array.append` calls cost more than the formatting itself.
    public func appendJSONLine(to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONNumber.lineCapacity) { line in
            var w = JSONNumber.Writer(line.baseAddress!)
            w.literal(#"{"t":"#)
            w.fixed(nanoseconds: tilt.timestampNanoseconds)
            w.literal(#","roll":"#)
            w.number(tilt.roll, decimals: 4)
            w.literal(#","pitch":"#)
            w.number(tilt.pitch, decimals: 4)
            w.literal(#","orientation":""#)
            w.name(tilt.facing?.rawValue ?? tilt.orientation?.rawValue ?? "undefined")
            w.literal(#"","shine":[{"rotation":"#)
            w.number(shines.first.rotation, decimals: 4)
            w.literal(#","opacity":"#)
            w.number(shines.first.opacity, decimals: 4)
            w.literal(#"},{"rotation":"#)
            w.number(shines.second.rotation, decimals: 4)
            w.literal(#","opacity":"#)
            w.number(shines.second.opacity, decimals: 4)
            w.literal("}]")
            if let motion = tilt.motion { w.motion(motion) }
            w.literal("}\n")
            out.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress, count: w.count))
        }
    }

    /// This state as one JSON Lines record, newline included.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Locale-free decimal formatting of numbers for JSON.
public enum JSONNumber {
    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// Bytes a JSON line may need: 23 numbers of at most 18 characters plus
    /// about 220 of keys and punctuation, with room to spare.
    static let lineCapacity = 768

    /// Appends `value` rounded to `decimals` places (0…9), trailing zeros and
    /// a bare trailing point dropped; `-0` prints as `0`; non-finite values
    /// and magnitudes beyond 9e9 print as `null` (never produced by the
    /// pipeline, but JSON has no NaN).
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        precondition((0...9).contains(decimals))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var w = Writer(buffer.baseAddress!)
            w.number(value, decimals: decimals)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: w.count))
        }
    }

    /// Appends a nanosecond timestamp as seconds with exactly 6 decimals
    /// (rounded to the nearest microsecond), computed in integers so that
    /// large timestamps keep every digit.
    public static func appendFixed(nanoseconds: Int64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var w = Writer(buffer.baseAddress!)
            w.fixed(nanoseconds: nanoseconds)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: w.count))
        }
    }

    /// Writes bytes forward into memory the caller sized (no bounds checks:
    /// every caller reserves the worst case above).
    struct Writer {
        private let start: UnsafeMutablePointer<UInt8>
        private var cursor: UnsafeMutablePointer<UInt8>

        init(_ start: UnsafeMutablePointer<UInt8>) {
            self.start = start
            cursor = start
        }

        /// Bytes written so far.
        var count: Int { cursor - start }

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            cursor.pointee = value
            cursor += 1
        }

        @inline(__always)
        mutating func literal(_ text: StaticString) {
            cursor.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            cursor += text.utf8CodeUnitCount
        }

        /// A name that needs no escaping (an orientation's raw value).
        mutating func name(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                cursor.update(from: bytes.baseAddress!, count: bytes.count)
                cursor += bytes.count
            }
        }

        /// See `JSONNumber.append(_:decimals:to:)`.
        mutating func number(_ value: Double, decimals: Int) {
            guard value.isFinite, abs(value) < 9e9 else {
                literal("null")
                return
            }
            let scale = JSONNumber.powersOfTen[decimals]
            let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
            var units = UInt64(scaled)
            if units == 0 {
                byte(UInt8(ascii: "0"))
                return
            }
            if value < 0 { byte(UInt8(ascii: "-")) }
            let divisor = UInt64(scale)
            integer(units / divisor)
            units %= divisor
            guard units != 0 else { return }
            var digits = decimals
            while units % 10 == 0 {
                units /= 10
                digits -= 1
            }
            byte(UInt8(ascii: "."))
            padded(units, width: digits)
        }

        /// `,"attitude":[…],…,"gyroBias":[…]`: `DeviceMotion`'s fields.
        mutating func motion(_ motion: DeviceMotion) {
            literal(#","attitude":["#)
            number(motion.attitude.w, decimals: 5)
            byte(UInt8(ascii: ","))
            number(motion.attitude.x, decimals: 5)
            byte(UInt8(ascii: ","))
            number(motion.attitude.y, decimals: 5)
            byte(UInt8(ascii: ","))
            number(motion.attitude.z, decimals: 5)
            literal(#"],"gravity":"#)
            vector(motion.gravity, decimals: 4)
            literal(#","userAcceleration":"#)
            vector(motion.userAcceleration, decimals: 4)
            literal(#","rotationRate":"#)
            vector(motion.rotationRate, decimals: 4)
            literal(motion.isResting ? #","rest":true,"gyroBias":"# : #","rest":false,"gyroBias":"#)
            vector(motion.gyroBias, decimals: 6)
        }

        /// `[x,y,z]`.
        mutating func vector(_ v: SIMD3<Double>, decimals: Int) {
            byte(UInt8(ascii: "["))
            number(v.x, decimals: decimals)
            byte(UInt8(ascii: ","))
            number(v.y, decimals: decimals)
            byte(UInt8(ascii: ","))
            number(v.z, decimals: decimals)
            byte(UInt8(ascii: "]"))
        }

        /// See `JSONNumber.appendFixed(nanoseconds:to:)`.
        mutating func fixed(nanoseconds: Int64) {
            var magnitude = nanoseconds.magnitude
            if nanoseconds < 0 { byte(UInt8(ascii: "-")) }
            magnitude = (magnitude + 500) / 1000  // microseconds
            integer(magnitude / 1_000_000)
            byte(UInt8(ascii: "."))
            padded(magnitude % 1_000_000, width: 6)
        }

        @inline(__always)
        mutating func integer(_ value: UInt64) {
            var width = 1
            var rest = value / 10
            while rest != 0 {
                width += 1
                rest /= 10
            }
            padded(value, width: width)
        }

        /// The last `width` decimal digits of `value`, zero-padded.
        @inline(__always)
        mutating func padded(_ value: UInt64, width: Int) {
            var v = value
            var i = width
            while i > 0 {
                i -= 1
                cursor[i] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
            }
            cursor += width
        }
    }
}
