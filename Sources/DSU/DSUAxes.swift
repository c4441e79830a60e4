import Devices
import Motion

/// How a source's axes become those DSU clients expect of a DualShock 4
/// held in front of the player (docs/dsu.md, "Axes"): accelerometer x, y,
/// z in g (lying flat, face up: (0, −1, 0)), gyroscope pitch, yaw, roll in
/// deg/s.
///
/// Readings arrive in tiltd's device frame (`Reading`: x to the left edge,
/// y to the bottom edge, z out of the face). A game pad's are turned back
/// into the frame its driver reports (the inverse of its mount matrix), and
/// evdevhook2's table for the pad applies (`evdevTable`); a laptop's or
/// tablet's screen is read as a pad's face, its bottom edge toward the player.
public struct DSUAxes: Equatable, Sendable {
    /// A 3×3 matrix by rows, applied as M·v.
    public struct Matrix: Equatable, Sendable {
        public var rows: [SIMD3<Double>]

        public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
            rows = [row0, row1, row2]
        }

        /// A table in evdevhook2's notation, e.g. "x-y-z-": output axis i is
        /// the input axis named by letter i, negated by "-", times `scale`.
        public init(table: String, scale: Double = 1) {
            let characters = Array(table)
            precondition(characters.count == 6, "a table names three axes with a sign each")
            rows = (0..<3).map { index in
                var row = SIMD3<Double>()
                let axis = Int(characters[2 * index].asciiValue! - Character("x").asciiValue!)
                row[axis] = characters[2 * index + 1] == "-" ? -scale : scale
                return row
            }
        }

        /// self · mᵀ (mᵀ undoes a rotation m).
        func times(transposeOf m: MountMatrix) -> Matrix {
            let columns = [SIMD3(m.rows.0.x, m.rows.1.x, m.rows.2.x), SIMD3(m.rows.0.y, m.rows.1.y, m.rows.2.y),
                           SIMD3(m.rows.0.z, m.rows.1.z, m.rows.2.z)]
            let transposeRows = columns  // row k of mᵀ is column k of m
            func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
                r.x * transposeRows[0] + r.y * transposeRows[1] + r.z * transposeRows[2]
            }
            return Matrix(row(rows[0]), row(rows[1]), row(rows[2]))
        }

        func apply(_ v: SIMD3<Double>) -> SIMD3<Float> {
            SIMD3(Float((rows[0] * v).sum()), Float((rows[1] * v).sum()), Float((rows[2] * v).sum()))
        }
    }

    /// tiltd's device frame (m/s² scaled to g) → DSU accelerometer x, y, z.
    public var acceleration: Matrix
    /// tiltd's device frame (deg/s) → DSU pitch, yaw, roll.
    public var rotation: Matrix
    /// Which table, for `tiltd list` and tests.
    public var name: String

    public init(acceleration: Matrix, rotation: Matrix, name: String) {
        self.acceleration = acceleration
        self.rotation = rotation
        self.name = name
    }

    /// evdevhook2's table (src/DeviceTypes.ini) for a pad reporting the
    /// driver's frame: the DualShock 4 (and every pad it has no entry for)
    /// negates all three axes of both sensors; the DualSense keeps the
    /// gyroscope's x; Switch controllers swap axes and scale the gyro.
    public static func evdevTable(vendor: Int, product: Int) -> (acceleration: String, rotation: String,
                                                                  rotationScale: Double, name: String) {
        switch (vendor, product) {
        case (0x054C, 0x0CE6), (0x054C, 0x0DF2): return ("x-y-z-", "x+y-z-", 1, "DualSense")
        case (0x057E, 0x2006), (0x057E, 0x2007), (0x057E, 0x2009): return ("y+z-x+", "y-z-x+", 0.858, "Switch")
        default: return ("x-y-z-", "x-y-z-", 1, "DualShock 4")
        }
    }

    /// A pad whose readings tiltd turned into its frame with `matrix`.
    public init(padVendor vendor: Int, product: Int, matrix: MountMatrix) {
        let table = Self.evdevTable(vendor: vendor, product: product)
        self.init(acceleration: Matrix(table: table.acceleration).times(transposeOf: matrix),
                  // A rate is a pseudovector: an improper matrix turned it the other way.
                  rotation: Matrix(table: table.rotation, scale: table.rotationScale * matrix.handedness)
                      .times(transposeOf: matrix),
                  name: table.name + " (evdevhook2's table)")
    }

    /// A laptop's or tablet's screen held like a pad: its face is the pad's
    /// face, its bottom edge toward the player; a DualShock 4's table.
    public static let screen: DSUAxes = {
        let pad = DSUAxes(padVendor: 0x054C, product: 0x09CC, matrix: PadFamily.padFrameMatrix)
        return DSUAxes(acceleration: pad.acceleration, rotation: pad.rotation, name: "screen frame")
    }()

    /// The axes for a live device.
    public init(_ status: CaptureStatus) {
        if let pad = status.pad {
            self.init(padVendor: pad.vendor, product: pad.product, matrix: pad.mountMatrix)
        } else {
            self = .screen
        }
    }

    /// One sample in DSU's axes and units, or nil when it is not finite.
    ///
    /// - Parameters:
    ///   - acceleration: m/s², tiltd's frame.
    ///   - rotationRate: rad/s (bias-corrected), tiltd's frame; nil without a gyroscope.
    ///   - timestampNanoseconds: the sample's own time.
    public func motion(acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>?,
                       timestampNanoseconds: Int64) -> DSUMotion? {
        let g = acceleration * (1 / MotionPadInfo.standardGravity)
        let degrees = (rotationRate ?? .zero) * (180 / Double.pi)
        guard (g * g).sum().isFinite, (degrees * degrees).sum().isFinite else { return nil }
        return DSUMotion(timestampMicroseconds: UInt64(max(0, timestampNanoseconds / 1000)),
                         accelerationG: self.acceleration.apply(g), rotationDegreesPerSecond: rotation.apply(degrees))
    }
}
