import Foundation
@testable import Motion
import Testing

/// Choosing how to read a hub's quaternion against the accelerometer, when
/// the first sample cannot tell the component orders apart (device flat).
@Suite struct RotationConventionChooserTests {
    typealias Convention = RotationQuaternion.Convention

    /// (x, y, z, w) of a rotation by `angle` about a unit `axis`.
    static func quaternion(axis: SIMD3<Double>, angle: Double) -> SIMD4<Double> {
        let s = sin(angle / 2)
        return SIMD4(axis.x * s, axis.y * s, axis.z * s, cos(angle / 2))
    }

    /// Hamilton product of (x, y, z, w) quaternions.
    static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
              a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    /// The components a hub using `convention` gives for a device turned by
    /// yaw ∘ pitch ∘ roll, and what the accelerometer reads then (m/s²).
    static func sample(_ convention: Convention, roll: Double, pitch: Double, yaw: Double)
        -> (components: SIMD4<Double>, acceleration: SIMD3<Double>) {
        var q = product(quaternion(axis: SIMD3(0, 0, 1), angle: yaw),
                        product(quaternion(axis: SIMD3(0, 1, 0), angle: pitch),
                                quaternion(axis: SIMD3(1, 0, 0), angle: roll)))
        if convention.conjugate { q.w = -q.w }
        let components = convention.scalarLast ? q : SIMD4(q.w, q.x, q.y, q.z)
        return (components, RotationQuaternion.up(components, convention: convention) * 9.80665)
    }

    static let degree = Double.pi / 180

    @Test(arguments: Convention.candidates)
    func flatWithSomeYawDefersTheChoiceAndATiltDecidesIt(truth: Convention) {
        let flat = Self.sample(truth, roll: 0, pitch: 0, yaw: 8 * Self.degree)
        var chooser = RotationConventionChooser(acceleration: flat.acceleration, components: flat.components)
        #expect(!chooser.isDecided, "flat, every order agrees within 15°: \(chooser.remaining)")
        #expect(chooser.remaining.contains(truth))
        // Still flat: no evidence, nothing decided.
        for _ in 0..<30 { chooser.observe(acceleration: flat.acceleration, components: flat.components) }
        #expect(!chooser.isDecided)
        // Tilted and held: the orders that disagree are ruled out.
        let tilted = Self.sample(truth, roll: 35 * Self.degree, pitch: -20 * Self.degree, yaw: 8 * Self.degree)
        for _ in 0..<chooser.evidenceSamples {
            chooser.observe(acceleration: tilted.acceleration, components: tilted.components)
        }
        #expect(chooser.isDecided)
        #expect(chooser.current == truth)
    }

    @Test(arguments: Convention.candidates)
    func aTiltedStartDecidesAtOnce(truth: Convention) {
        let tilted = Self.sample(truth, roll: 30 * Self.degree, pitch: 25 * Self.degree, yaw: 60 * Self.degree)
        let chooser = RotationConventionChooser(acceleration: tilted.acceleration, components: tilted.components)
        #expect(chooser.isDecided && chooser.current == truth, "\(chooser.remaining)")
    }

    /// A hand moving the device (|a| far from g), or a few samples that
    /// disagree, rule nothing out.
    @Test func motionAndShortDisagreementsAreNoEvidence() {
        let truth = Convention(scalarLast: false, conjugate: false)
        let flat = Self.sample(truth, roll: 0, pitch: 0, yaw: 5 * Self.degree)
        var chooser = RotationConventionChooser(acceleration: flat.acceleration, components: flat.components)
        let before = chooser.remaining
        let tilted = Self.sample(truth, roll: 40 * Self.degree, pitch: 0, yaw: 5 * Self.degree)
        for _ in 0..<50 {
            chooser.observe(acceleration: tilted.acceleration * 1.6, components: tilted.components)
        }
        #expect(chooser.remaining == before, "shaken samples decided \(chooser.remaining)")
        for _ in 0..<(chooser.evidenceSamples - 1) {
            chooser.observe(acceleration: tilted.acceleration, components: tilted.components)
        }
        chooser.observe(acceleration: flat.acceleration, components: flat.components)
        #expect(chooser.remaining == before, "one sample short of the evidence needed")
    }

    @Test func noOrderAgreeingLeavesNothingToUse() {
        let chooser = RotationConventionChooser(acceleration: SIMD3(0, -9.8, 0),
                                                components: SIMD4(0, 0, 0, 1))
        #expect(chooser.current == nil)
        #expect(abs(chooser.closestRadians - .pi / 2) < 1e-6)
    }
}
