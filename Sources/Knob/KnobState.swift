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
    /// `t` is seconds with 6 decimals; angles, rotations and opacities have 4
    /// decimals with trailing zeros dropped. Written by hand into a byte
    /// buffer: JSONEncoder and String(format:) cost microseconds a line, and
    /// replaying a million samples must take well under a second.
    public func appendJSONLine(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"t":"#.utf8)
        JSONNumber.appendFixed(nanoseconds: tilt.timestampNanoseconds, to: &out)
        out.append(contentsOf: #","roll":"#.utf8)
        JSONNumber.append(tilt.roll, decimals: 4, to: &out)
        out.append(contentsOf: #","pitch":"#.utf8)
        JSONNumber.append(tilt.pitch, decimals: 4, to: &out)
        out.append(contentsOf: #","orientation":""#.utf8)
        out.append(contentsOf: (tilt.orientation?.rawValue ?? "undefined").utf8)
        out.append(contentsOf: #"","shine":[{"rotation":"#.utf8)
        JSONNumber.append(shines.first.rotation, decimals: 4, to: &out)
        out.append(contentsOf: #","opacity":"#.utf8)
        JSONNumber.append(shines.first.opacity, decimals: 4, to: &out)
        out.append(contentsOf: #"},{"rotation":"#.utf8)
        JSONNumber.append(shines.second.rotation, decimals: 4, to: &out)
        out.append(contentsOf: #","opacity":"#.utf8)
        JSONNumber.append(shines.second.opacity, decimals: 4, to: &out)
        out.append(contentsOf: "}]}\n".utf8)
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

    /// Appends `value` rounded to `decimals` places (0…9), trailing zeros and
    /// a bare trailing point dropped; `-0` prints as `0`; non-finite values
    /// and magnitudes beyond 9e9 print as `null` (never produced by the
    /// pipeline, but JSON has no NaN).
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        precondition((0...9).contains(decimals))
        guard value.isFinite, abs(value) < 9e9 else {
            out.append(contentsOf: "null".utf8)
            return
        }
        let scale = powersOfTen[decimals]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        var units = UInt64(scaled)
        if units == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        appendInteger(units / divisor, to: &out)
        units %= divisor
        guard units != 0 else { return }
        var digits = decimals
        while units % 10 == 0 {
            units /= 10
            digits -= 1
        }
        out.append(UInt8(ascii: "."))
        appendPadded(units, width: digits, to: &out)
    }

    /// Appends a nanosecond timestamp as seconds with exactly 6 decimals
    /// (rounded to the nearest microsecond), computed in integers so that
    /// large timestamps keep every digit.
    public static func appendFixed(nanoseconds: Int64, to out: inout [UInt8]) {
        var magnitude = nanoseconds.magnitude
        if nanoseconds < 0 { out.append(UInt8(ascii: "-")) }
        magnitude = (magnitude + 500) / 1000  // microseconds
        appendInteger(magnitude / 1_000_000, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(magnitude % 1_000_000, width: 6, to: &out)
    }

    @inline(__always)
    static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch
        withUnsafeMutableBytes(of: &buffer) { scratch in
            var i = scratch.count
            repeat {
                i -= 1
                scratch[i] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
            } while v != 0
            out.append(contentsOf: scratch[i...])
        }
    }

    @inline(__always)
    static func appendPadded(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var v = value
        var buffer: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &buffer) { scratch in
            var i = width
            while i > 0 {
                i -= 1
                scratch[i] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
            }
            out.append(contentsOf: scratch[0..<width])
        }
    }
}
