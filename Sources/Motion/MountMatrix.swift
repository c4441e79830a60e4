/// A 3×3 IIO mount matrix that turns the chip's axes into the device frame.
///
/// IIO ABI (`Documentation/ABI/testing/sysfs-bus-iio`, `mount_matrix`): the
/// text is `"x1, y1, z1; x2, y2, z2; x3, y3, z3"` and is applied as M·v, so
/// output axis *i* is row *i* · (x, y, z). Real hwdb entries are not all
/// rotations (determinant −1 occurs, and one uses the x axis twice), so any
/// matrix without an all-zero row is accepted; `isSignedPermutation` lets the
/// caller warn about unusual ones.
public struct MountMatrix: Sendable, Equatable, CustomStringConvertible {
    /// The three rows; output axis i = `rows[i]` · input.
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (row0, row1, row2)
    }

    @usableFromInline var row0: SIMD3<Double>
    @usableFromInline var row1: SIMD3<Double>
    @usableFromInline var row2: SIMD3<Double>

    /// Builds a matrix from its rows (no validation: use `init(parsing:)`
    /// for text from a device).
    public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// The identity: what a device without a mount matrix uses.
    public static let identity = MountMatrix(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// Parses the IIO text form.
    ///
    /// Spaces around numbers are optional and a trailing newline is ignored;
    /// an empty string means identity (iio-sensor-proxy does the same).
    /// Numbers are parsed with `Double(String)`, which does not depend on
    /// the C locale.
    /// - Parameter text: e.g. `"0, -1, 0; 1, 0, 0; 0, 0, 1\n"`.
    /// - Throws: `MountMatrixError` quoting the text when it does not have
    ///   three rows of three finite numbers or a row is all zeros.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingASCIIWhitespace()
        if trimmed.isEmpty {
            self = .identity
            return
        }
        let rowTexts = trimmed.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            throw MountMatrixError(text: text,
                                   problem: "it has \(rowTexts.count) rows separated by ';', expected 3")
        }
        var parsed: [SIMD3<Double>] = []
        for (index, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw MountMatrixError(text: text,
                                       problem: "row \(index + 1) has \(cells.count) values, expected 3")
            }
            var row = SIMD3<Double>()
            for (column, cell) in cells.enumerated() {
                let cellText = String(cell).trimmingASCIIWhitespace()
                guard let value = Double(cellText), value.isFinite else {
                    throw MountMatrixError(
                        text: text,
                        problem: "row \(index + 1) value \(column + 1) \"\(cellText)\" is not a number")
                }
                row[column] = value
            }
            guard row != .zero else {
                throw MountMatrixError(text: text,
                                       problem: "row \(index + 1) is all zeros, so that axis would always read 0")
            }
            parsed.append(row)
        }
        self.init(parsed[0], parsed[1], parsed[2])
    }

    /// M·v: output axis i is row i · v.
    @inlinable
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
    }

    /// +1 for a proper matrix, −1 for an improper one (a reflection, det < 0).
    public var handedness: Double {
        let determinant = row0.x * (row1.y * row2.z - row1.z * row2.y)
            - row0.y * (row1.x * row2.z - row1.z * row2.x)
            + row0.z * (row1.x * row2.y - row1.y * row2.x)
        return determinant < 0 ? -1 : 1
    }

    /// det(M)·M·ω: an angular velocity is a pseudovector, so under an
    /// improper matrix it turns the other way from an acceleration
    /// (docs/devices.md, "Gyroscope").
    @inlinable
    public func applyToAngularVelocity(_ omega: SIMD3<Double>) -> SIMD3<Double> {
        apply(omega) * handedness
    }

    /// True when every row and column holds exactly one ±1 and zeros
    /// elsewhere: the axis swaps and flips a mount matrix normally is.
    /// Anything else (a scaled axis, an axis used twice) deserves a warning.
    public var isSignedPermutation: Bool {
        let all = [row0, row1, row2]
        var columnUsed = [false, false, false]
        for row in all {
            var found = -1
            for column in 0..<3 {
                let value = row[column]
                if value == 0 { continue }
                guard abs(value) == 1, found < 0 else { return false }
                found = column
            }
            guard found >= 0, !columnUsed[found] else { return false }
            columnUsed[found] = true
        }
        return true
    }

    /// The IIO text form, e.g. `"0, -1, 0; 1, 0, 0; 0, 0, 1"` (integers
    /// written without a fraction), which `init(parsing:)` reads back.
    public var iioText: String {
        [row0, row1, row2].map { row in
            (0..<3).map { MountMatrix.format(row[$0]) }.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    public var description: String { iioText }

    public static func == (lhs: MountMatrix, rhs: MountMatrix) -> Bool {
        lhs.row0 == rhs.row0 && lhs.row1 == rhs.row1 && lhs.row2 == rhs.row2
    }

    private static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}
