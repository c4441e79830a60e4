import Foundation
@testable import Motion

/// A sensor hub made by construction: a true attitude, the quaternion the
/// hub reports for it in a given convention, and what its accelerometer
/// reads (optionally mounted a few degrees off).
struct SimulatedHub {
    typealias Convention = RotationQuaternion.Convention

    static let degree = Double.pi / 180
    static let gravity = 9.80665

    /// A 3×3 matrix as its rows.
    struct Matrix {
        var rows: [SIMD3<Double>]

        static func * (a: Matrix, b: Matrix) -> Matrix {
            let columns = (0..<3).map { column in SIMD3(b.rows[0][column], b.rows[1][column], b.rows[2][column]) }
            return Matrix(rows: a.rows.map { row in SIMD3(columns.map { (row * $0).sum() }) })
        }

        func apply(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(rows.map { ($0 * v).sum() }) }

        var transposed: Matrix {
            Matrix(rows: (0..<3).map { column in SIMD3(rows[0][column], rows[1][column], rows[2][column]) })
        }

        /// A turn by `angle` about the unit `axis` (Rodrigues).
        static func rotation(axis: SIMD3<Double>, angle: Double) -> Matrix {
            let k = axis / (axis * axis).sum().squareRoot()
            let c = cos(angle), s = sin(angle), t = 1 - c
            return Matrix(rows: [
                SIMD3(c + k.x * k.x * t, k.x * k.y * t - k.z * s, k.x * k.z * t + k.y * s),
                SIMD3(k.y * k.x * t + k.z * s, c + k.y * k.y * t, k.y * k.z * t - k.x * s),
                SIMD3(k.z * k.x * t - k.y * s, k.z * k.y * t + k.x * s, c + k.z * k.z * t),
            ])
        }

        /// The device-to-world attitude yaw ∘ pitch ∘ roll (about z, y, x).
        static func attitude(roll: Double, pitch: Double, yaw: Double) -> Matrix {
            rotation(axis: SIMD3(0, 0, 1), angle: yaw) * rotation(axis: SIMD3(0, 1, 0), angle: pitch)
                * rotation(axis: SIMD3(1, 0, 0), angle: roll)
        }

        /// (x, y, z, w) of this rotation (Shepperd's method, w ≥ 0).
        var quaternion: SIMD4<Double> {
            let m = rows
            let trace = m[0].x + m[1].y + m[2].z
            var q: SIMD4<Double>
            if trace > 0 {
                let s = (trace + 1).squareRoot() * 2
                q = SIMD4((m[2].y - m[1].z) / s, (m[0].z - m[2].x) / s, (m[1].x - m[0].y) / s, s / 4)
            } else if m[0].x > m[1].y && m[0].x > m[2].z {
                let s = (1 + m[0].x - m[1].y - m[2].z).squareRoot() * 2
                q = SIMD4(s / 4, (m[0].y + m[1].x) / s, (m[0].z + m[2].x) / s, (m[2].y - m[1].z) / s)
            } else if m[1].y > m[2].z {
                let s = (1 + m[1].y - m[0].x - m[2].z).squareRoot() * 2
                q = SIMD4((m[0].y + m[1].x) / s, s / 4, (m[1].z + m[2].y) / s, (m[0].z - m[2].x) / s)
            } else {
                let s = (1 + m[2].z - m[0].x - m[1].y).squareRoot() * 2
                q = SIMD4((m[0].z + m[2].x) / s, (m[1].z + m[2].y) / s, s / 4, (m[1].x - m[0].y) / s)
            }
            return q.w < 0 ? -q : q
        }
    }

    /// How the hub reads its quaternion and how its frame lies.
    let convention: Convention
    /// The accelerometer's mounting error: its readings turned by this.
    let accelerometerError: Matrix

    /// - Parameters:
    ///   - convention: the hub's reading and frame.
    ///   - accelerometerOffDegrees: how far the accelerometer is mounted off
    ///     (about a fixed skew axis); 0 for a perfect one.
    init(_ convention: Convention, accelerometerOffDegrees: Double = 0) {
        self.convention = convention
        accelerometerError = Matrix.rotation(axis: SIMD3(0.3, -0.5, 0.8), angle: accelerometerOffDegrees * Self.degree)
    }

    /// The true "up" in the accelerometer's frame for a device-to-world attitude.
    static func up(_ attitude: Matrix) -> SIMD3<Double> { attitude.transposed.apply(SIMD3(0, 0, 1)) }

    /// The four components the hub gives for `attitude` (the accelerometer's
    /// frame to the world), and what the accelerometer reads (m/s²).
    func sample(_ attitude: Matrix) -> (components: SIMD4<Double>, acceleration: SIMD3<Double>) {
        // The convention's axes take the hub's frame to the accelerometer's,
        // so the hub's own device-to-world rotation is attitude · axes.
        let axes = convention.axes
        let hubAttitude = attitude * Matrix(rows: [axes.x, axes.y, axes.z])
        var q = hubAttitude.quaternion
        if convention.conjugate { q.w = -q.w }
        let components = convention.scalarLast ? q : SIMD4(q.w, q.x, q.y, q.z)
        return (components, accelerometerError.apply(Self.up(attitude)) * Self.gravity)
    }

    /// The angle in degrees between two vectors.
    static func degrees(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let cosine = (a * b).sum() / ((a * a).sum() * (b * b).sum()).squareRoot()
        return acos(min(1, max(-1, cosine))) / degree
    }
}
