import Foundation
@testable import Motion
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(2))) struct OrientationClassifierTests {
    /// iio-sensor-proxy's test scale: 1 g = 256 raw.
    static let scale = 9.81 / 256

    @Test(arguments: [
        (SIMD3<Double>(0, -256, 0), ScreenOrientation.normal),
        (SIMD3<Double>(-256, 0, 0), .rightUp),
        (SIMD3<Double>(256, 0, 0), .leftUp),
        (SIMD3<Double>(0, 256, 0), .bottomUp),
    ])
    func iioSensorProxyVectors(raw: SIMD3<Double>, expected: ScreenOrientation) {
        var classifier = OrientationClassifier()
        let result1 = classifier.update(raw * Self.scale)
        #expect(result1 == expected)
    }

    @Test func ondaV975() throws {
        let matrix = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        var classifier = OrientationClassifier()
        let result2 = classifier.update(matrix.apply(SIMD3(523, 13, 5)) * 0.019163)
        #expect(result2 == .normal)
        let result3 = classifier.update(matrix.apply(SIMD3(8, 521, -67)) * 0.019163)
        #expect(result3 == .rightUp)
    }

    @Test func undefinedUntilFirstDecisionThenKept() {
        var classifier = OrientationClassifier()
        let result4 = classifier.update(SIMD3(0, 0, 9.81))
        #expect(result4 == nil)  // flat: no decision
        let result5 = classifier.update(SIMD3(0, -9.81, 0))
        #expect(result5 == .normal)
        let result6 = classifier.update(SIMD3(0, 0, 9.81))
        #expect(result6 == .normal)  // flat again: kept
        // Both beyond 35°: on the border between two orientations, kept.
        let result7 = classifier.update(SIMD3(7, 7, 0))
        #expect(result7 == .normal)
        let result8 = classifier.update(SIMD3(9.81, 0, 0))
        #expect(result8 == .leftUp)
    }

    @Test func roundingToWholeDegreesDecidesTheBorder() {
        // In 1 g = 256 units: 35.4° rounds to 35 (not over), 35.6° to 36 (over).
        func vector(degrees: Double) -> SIMD3<Double> {
            let r = degrees * Double.pi / 180
            return SIMD3(10_000 * sin(r), 0, 10_000 * cos(r)) * Self.scale
        }
        var below = OrientationClassifier()
        let result9 = below.update(vector(degrees: 35.4))
        #expect(result9 == nil)
        var above = OrientationClassifier()
        let result10 = above.update(vector(degrees: 35.6))
        #expect(result10 == .leftUp)
    }

    @Test func slopeConstantMatchesTan() {
        let slope = tan(35.5 * Double.pi / 180)
        #expect(abs(OrientationClassifier.thresholdSlopeSquared - slope * slope) < 1e-15)
    }

    @Test func fastPathAgreesWithReferenceFormula() {
        var generator = SplitMix(seed: 42)
        let previousChoices: [ScreenOrientation?] = [nil, .normal, .bottomUp, .leftUp, .rightUp]
        var checked = 0
        // A dense grid near 1 g plus random vectors of every size.
        for x in stride(from: -300, through: 300, by: 7) {
            for y in stride(from: -300, through: 300, by: 7) {
                for z in stride(from: -300, through: 300, by: 25) {
                    let previous = previousChoices[checked % previousChoices.count]
                    let fast = OrientationClassifier.decide(SIMD3(Double(x), Double(y), Double(z)),
                                                            previous: previous)
                    let reference = OrientationClassifier.reference(x: x, y: y, z: z, previous: previous)
                    #expect(fast == reference, "(\(x), \(y), \(z))")
                    checked += 1
                }
            }
        }
        for _ in 0..<100_000 {
            let x = Int(generator.next() % 20_001) - 10_000
            let y = Int(generator.next() % 20_001) - 10_000
            let z = Int(generator.next() % 20_001) - 10_000
            let fast = OrientationClassifier.decide(SIMD3(Double(x), Double(y), Double(z)), previous: nil)
            #expect(fast == OrientationClassifier.reference(x: x, y: y, z: z, previous: nil), "(\(x), \(y), \(z))")
        }
        #expect(checked > 10_000)
    }
}
