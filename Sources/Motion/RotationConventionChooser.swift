/// Decides how to read a hub's quaternion (`RotationQuaternion.Convention`)
/// from the accelerometer on the same hub, over as many samples as it takes.
///
/// The candidates are every proper relation between the two frames: both
/// component orders, either direction, and each of the 24 axis-aligned
/// rotations between the quaternion's device frame and the accelerometer's
/// (`Convention.candidates`, 96). One sample does not always decide: with
/// the device flat, every frame turned about the vertical gives the same
/// "up", a reading in the wrong order mistakes a yaw of ψ for a tilt of ψ
/// (below 15° of yaw it still agrees), and the conjugate of a rotation about
/// "up" is indistinguishable from it. Taking the first that agrees would
/// then be a guess. Instead every candidate within `toleranceRadians` on the
/// first sample stays in play, and each one's recent misfit is kept: the
/// mean of 1 − cos(angle between its "up" and the accelerometer), each
/// sample weighing 1/`evidenceSamples`. The one in use is the one that fits
/// best (the first in `Convention.candidates` order among those within
/// `slackRadians` of the best: x, y, z, w, device to world, the frames' axes
/// the same, Windows' and W3C's reading, comes first), and it gives way
/// only to one that fits better by more than `slackRadians` (no flicker
/// between two that fit alike). So where the candidates differ, the one
/// following the accelerometer is used; where they give the same "up" the
/// choice does not change the output. A candidate is dropped once it has
/// disagreed (beyond the tolerance) for `evidenceSamples` samples in a row
/// while another agreed. Only samples where |a| is within 10 % of g count
/// (a hand moving the device is no evidence about the quaternion), and a
/// sample no candidate explains counts for none.
public struct RotationConventionChooser: Sendable {
    /// The candidates still in play, in preference order.
    public private(set) var remaining: [RotationQuaternion.Convention]
    /// How far "up" may lie from the measured acceleration to agree (radians).
    public let toleranceRadians: Double
    /// Consecutive disagreeing samples that rule a candidate out.
    public let evidenceSamples: Int
    /// How much better (radians, root mean square) another candidate must
    /// fit to replace the one in use.
    public let slackRadians: Double
    /// The smallest angle any candidate reached on the first sample (radians).
    public private(set) var closestRadians = Double.pi
    /// The index in `remaining` of the one in use.
    private var currentIndex = 0
    private var disagreements: [Int]
    /// Per candidate in `remaining`: the recent mean of 1 − cos(angle to the accelerometer).
    private var misfit: [Double]
    private let cosineTolerance: Double

    /// Starts from the first sample.
    ///
    /// - Parameters:
    ///   - acceleration: the accelerometer's reading, m/s².
    ///   - components: the quaternion as read (scaled).
    public init(acceleration: SIMD3<Double>, components: SIMD4<Double>,
                toleranceRadians: Double = 15 * .pi / 180, evidenceSamples: Int = 10,
                slackRadians: Double = 1 * .pi / 180) {
        self.toleranceRadians = toleranceRadians
        self.evidenceSamples = evidenceSamples
        self.slackRadians = slackRadians
        let cosineTolerance = Self.cosine(toleranceRadians)
        self.cosineTolerance = cosineTolerance
        let (_, closest) = RotationQuaternion.convention(agreeingWith: acceleration, components: components,
                                                         toleranceRadians: toleranceRadians)
        closestRadians = closest
        let length = (acceleration * acceleration).sum().squareRoot()
        var remaining: [RotationQuaternion.Convention] = [], misfit: [Double] = []
        if length > 0 && length.isFinite {
            for candidate in RotationQuaternion.Convention.candidates {
                let cosine = (RotationQuaternion.up(components, convention: candidate) * acceleration).sum() / length
                if cosine >= cosineTolerance {
                    remaining.append(candidate)
                    misfit.append(1 - cosine)
                }
            }
        }
        self.remaining = remaining
        self.misfit = misfit
        disagreements = Array(repeating: 0, count: remaining.count)
        currentIndex = bestFitting()
    }

    /// The convention in use; nil when none agreed with the first sample.
    public var current: RotationQuaternion.Convention? {
        remaining.isEmpty ? nil : remaining[currentIndex]
    }

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
        let cosines = remaining.map {
            (RotationQuaternion.up(components, convention: $0) * acceleration).sum() / length
        }
        guard cosines.contains(where: { $0 >= cosineTolerance }) else { return false }
        let before = current
        let weight = 1 / Double(evidenceSamples)
        var kept: [RotationQuaternion.Convention] = [], counts: [Int] = [], means: [Double] = []
        var keptCurrent: Int?
        for index in remaining.indices {
            let agrees = cosines[index] >= cosineTolerance
            let count = agrees ? 0 : disagreements[index] + 1
            if count < evidenceSamples {
                if index == currentIndex { keptCurrent = kept.count }
                kept.append(remaining[index])
                counts.append(count)
                means.append(misfit[index] + weight * (1 - cosines[index] - misfit[index]))
            }
        }
        remaining = kept
        disagreements = counts
        misfit = means
        let best = bestFitting()
        if let keptCurrent, Self.angle(misfit[best]) + slackRadians >= Self.angle(misfit[keptCurrent]) {
            currentIndex = keptCurrent
        } else {
            currentIndex = best
        }
        return current != before
    }

    /// The first candidate whose misfit is within `slackRadians` of the smallest.
    private func bestFitting() -> Int {
        guard let smallest = misfit.min() else { return 0 }
        let limit = Self.angle(smallest) + slackRadians
        return misfit.firstIndex { Self.angle($0) <= limit } ?? 0
    }

    /// The root-mean-square angle (radians) a misfit (mean of 1 − cos) stands for: √(2·misfit), exact for small angles.
    private static func angle(_ misfit: Double) -> Double { (2 * max(0, misfit)).squareRoot() }

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
