/// Decides how to read a hub's quaternion (`RotationQuaternion.Convention`)
/// from the accelerometer on the same hub, over as many samples as it takes.
///
/// One sample does not always decide: with the device flat, every reading
/// of a turn about the vertical gives "up" within a few degrees of the
/// others (a reading in the wrong order mistakes a yaw of ψ for a tilt of
/// ψ, so below 15° of yaw it still agrees), and the conjugate of a rotation
/// about "up" is indistinguishable from it. Taking the first that agrees
/// would then be a guess. Instead every candidate that agrees stays in
/// play; the first of them in `Convention.candidates` order (x, y, z, w,
/// device to world: Windows' and W3C's order for the HID quaternion) is
/// used meanwhile — the candidates left give the same "up" within the
/// tolerance at that point, so the output does not depend on the guess —
/// and a candidate is dropped once it has disagreed with the accelerometer
/// for `evidenceSamples` samples in a row while another agreed. Only
/// samples where |a| is within 10 % of g count (a hand moving the device
/// is no evidence about the quaternion).
public struct RotationConventionChooser: Sendable {
    /// The candidates still in play, in preference order; the first is the one in use.
    public private(set) var remaining: [RotationQuaternion.Convention]
    /// How far "up" may lie from the measured acceleration to agree (radians).
    public let toleranceRadians: Double
    /// Consecutive disagreeing samples that rule a candidate out.
    public let evidenceSamples: Int
    /// The smallest angle any candidate reached on the first sample (radians).
    public private(set) var closestRadians = Double.pi
    private var disagreements: [Int]
    private let cosineTolerance: Double

    /// Starts from the first sample.
    ///
    /// - Parameters:
    ///   - acceleration: the accelerometer's reading, m/s².
    ///   - components: the quaternion as read (scaled).
    public init(acceleration: SIMD3<Double>, components: SIMD4<Double>,
                toleranceRadians: Double = 15 * .pi / 180, evidenceSamples: Int = 10) {
        self.toleranceRadians = toleranceRadians
        self.evidenceSamples = evidenceSamples
        let cosineTolerance = Self.cosine(toleranceRadians)
        self.cosineTolerance = cosineTolerance
        let (_, closest) = RotationQuaternion.convention(agreeingWith: acceleration, components: components,
                                                         toleranceRadians: toleranceRadians)
        closestRadians = closest
        let length = (acceleration * acceleration).sum().squareRoot()
        remaining = length > 0 && length.isFinite ? RotationQuaternion.Convention.candidates.filter {
            (RotationQuaternion.up(components, convention: $0) * acceleration).sum() / length >= cosineTolerance
        } : []
        disagreements = Array(repeating: 0, count: remaining.count)
    }

    /// The convention in use; nil when none agreed with the first sample.
    public var current: RotationQuaternion.Convention? { remaining.first }

    /// True once one candidate is left.
    public var isDecided: Bool { remaining.count == 1 }

    /// Weighs one more sample.
    ///
    /// - Returns: true when the convention in use changed.
    @discardableResult
    public mutating func observe(acceleration: SIMD3<Double>, components: SIMD4<Double>) -> Bool {
        guard remaining.count > 1 else { return false }
        let length = (acceleration * acceleration).sum().squareRoot()
        guard abs(length - Self.standardGravity) <= 0.1 * Self.standardGravity else { return false }
        let agrees = remaining.map {
            (RotationQuaternion.up(components, convention: $0) * acceleration).sum() / length >= cosineTolerance
        }
        guard agrees.contains(true) else { return false }  // a sample nobody explains decides nothing
        let before = remaining.first
        var kept: [RotationQuaternion.Convention] = [], counts: [Int] = []
        for index in remaining.indices {
            let count = agrees[index] ? 0 : disagreements[index] + 1
            if count < evidenceSamples {
                kept.append(remaining[index])
                counts.append(count)
            }
        }
        remaining = kept
        disagreements = counts
        return remaining.first != before
    }

    static let standardGravity = 9.80665

    /// cos(x) for |x| ≤ π by its Taylor series to x¹² (error < 1e-6 there),
    /// once per chooser (no libm call needed here).
    private static func cosine(_ x: Double) -> Double {
        var term = 1.0
        var sum = 1.0
        for n in stride(from: 2, through: 24, by: 2) {
            term *= -x * x / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
}
