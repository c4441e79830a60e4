/// One of the 24 rotations that take a frame's axes onto another frame's
/// axes (a signed permutation matrix with determinant +1): how the axes of
/// an HID hub's quaternion lie relative to its accelerometer's, which the
/// IIO ABI does not say (SPEC §11).
///
/// Each row says which axis of the source frame, and with which sign, is
/// the target's x, y or z: `(−y, x, z)` reads a vector (x, y, z) of the
/// source as (−y, x, z) in the target, a quarter turn about z.
public struct AxisRotation: Sendable, Equatable, CustomStringConvertible {
    /// The rows of the matrix.
    public let x: SIMD3<Double>
    public let y: SIMD3<Double>
    public let z: SIMD3<Double>

    /// The identity: both frames' axes are the same.
    public static let identity = AxisRotation(x: SIMD3(1, 0, 0), y: SIMD3(0, 1, 0), z: SIMD3(0, 0, 1))

    /// All 24, the identity first, then the ones that keep z (turns about
    /// the screen's normal), then the rest; each group in a fixed order.
    public static let all: [AxisRotation] = {
        let permutations = [[0, 1, 2], [1, 0, 2], [0, 2, 1], [2, 1, 0], [1, 2, 0], [2, 0, 1]]
        var found: [AxisRotation] = []
        for permutation in permutations {
            for signs in 0..<8 {
                let rows = (0..<3).map { row -> SIMD3<Double> in
                    var vector = SIMD3<Double>()
                    vector[permutation[row]] = signs & (1 << row) == 0 ? 1 : -1
                    return vector
                }
                let rotation = AxisRotation(x: rows[0], y: rows[1], z: rows[2])
                if rotation.determinant == 1 { found.append(rotation) }
            }
        }
        let keepsZ = found.filter { $0.z == SIMD3(0, 0, 1) }
        return [identity] + keepsZ.filter { $0 != identity } + found.filter { $0.z != SIMD3(0, 0, 1) }
    }()

    init(x: SIMD3<Double>, y: SIMD3<Double>, z: SIMD3<Double>) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The vector in the target frame.
    @inlinable
    public func apply(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((x * vector).sum(), (y * vector).sum(), (z * vector).sum())
    }

    /// True for the identity.
    public var isIdentity: Bool { self == .identity }

    var determinant: Double {
        x.x * (y.y * z.z - y.z * z.y) - x.y * (y.x * z.z - y.z * z.x) + x.z * (y.x * z.y - y.y * z.x)
    }

    /// "(−y, x, z)": the source axis each target axis is.
    public var description: String {
        let names = ["x", "y", "z"]
        let axes = [x, y, z].map { row -> String in
            let index = row.x != 0 ? 0 : row.y != 0 ? 1 : 2
            return (row[index] < 0 ? "−" : "") + names[index]
        }
        return "(" + axes.joined(separator: ", ") + ")"
    }
}
