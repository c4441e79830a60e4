import Foundation
@testable import Motion
import Testing

/// A hub's quaternion: the "up" it implies and the convention check.
@Suite(.timeLimit(.minutes(2))) struct RotationQuaternionTests {
    /// The device-to-world quaternion (w, x, y, z) of a turn by `angle` about `axis`.
    static func quaternion(axis: SIMD3<Double>, angle: Double) -> SIMD4<Double> {
        let unit = axis / (axis * axis).sum().squareRoot()
        let s = sin(angle / 2)
        return SIMD4(cos(angle / 2), unit.x * s, unit.y * s, unit.z * s)
    }

    /// The world's up (0, 0, 1) seen in the device frame of that turn: R(q)ᵀ·ẑ.
    static func deviceUp(axis: SIMD3<Double>, angle: Double) -> SIMD3<Double> {
        let k = axis / (axis * axis).sum().squareRoot()
        let v = SIMD3<Double>(0, 0, 1)
        // Rodrigues for the inverse turn (−angle).
        let c = cos(-angle), s = sin(-angle)
        let cross = SIMD3(k.y * v.z - k.z * v.y, k.z * v.x - k.x * v.z, k.x * v.y - k.y * v.x)
        return v * c + cross * s + k * ((k * v).sum() * (1 - c))
    }

    @Test func identityIsFaceUpWhicheverTheOrder() {
        for convention in RotationQuaternion.Convention.readings {
            let components = convention.scalarLast ? SIMD4<Double>(0, 0, 0, 1) : SIMD4<Double>(1, 0, 0, 0)
            #expect(RotationQuaternion.up(components, convention: convention) == SIMD3(0, 0, 1))
        }
    }

    @Test func eachConventionIsRecognisedFromOneTiltedReading() {
        let axis = SIMD3<Double>(1, 2, 0.5), angle = 50 * Double.pi / 180
        let q = Self.quaternion(axis: axis, angle: angle)  // (w, x, y, z), device to world
        let truth = Self.deviceUp(axis: axis, angle: angle)
        let accelerometer = truth * 9.81 + SIMD3(0.1, -0.05, 0.08)  // a little noise
        let layouts: [(RotationQuaternion.Convention, SIMD4<Double>)] = [
            (.init(scalarLast: true, conjugate: false), SIMD4(q.y, q.z, q.w, q.x)),
            (.init(scalarLast: true, conjugate: true), SIMD4(-q.y, -q.z, -q.w, q.x)),
            (.init(scalarLast: false, conjugate: false), q),
            (.init(scalarLast: false, conjugate: true), SIMD4(q.x, -q.y, -q.z, -q.w)),
        ]
        for (expected, components) in layouts {
            let (chosen, closest) = RotationQuaternion.convention(agreeingWith: accelerometer, components: components)
            #expect(chosen == expected, "components \(components)")
            #expect(closest < 2 * Double.pi / 180)
            let up = RotationQuaternion.up(components, convention: expected)
            #expect(((up - truth) * (up - truth)).sum() < 1e-20)
        }
    }

    /// A frame turned by an axis-aligned rotation is a reading too: a
    /// quaternion saying flat agrees with an upright accelerometer through
    /// the frame turned a quarter about x.
    @Test func aTurnedFrameIsAReading() throws {
        let (chosen, closest) = RotationQuaternion.convention(agreeingWith: SIMD3(0, -9.81, 0),
                                                              components: SIMD4(0, 0, 0, 1))
        let convention = try #require(chosen)
        #expect(closest < 1e-9)
        #expect(RotationQuaternion.up(SIMD4(0, 0, 0, 1), convention: convention) == SIMD3(0, -1, 0))
        #expect(!convention.axes.isIdentity)
    }

    @Test func noConventionAgreesWithAnAccelerometerPointingElsewhere() {
        // Upright device, a quaternion of a generic turn: every one of the
        // 96 readings lies 42.7° or more from it.
        let (chosen, closest) = RotationQuaternion.convention(agreeingWith: SIMD3(0, -9.81, 0),
                                                              components: SIMD4(0.2, 0.35, 0.1, 0.91))
        #expect(chosen == nil)
        #expect(abs(closest - 42.68 * Double.pi / 180) < 0.01 * Double.pi / 180)
        #expect(RotationQuaternion.convention(agreeingWith: .zero, components: SIMD4(0, 0, 0, 1)).0 == nil)
    }
}
