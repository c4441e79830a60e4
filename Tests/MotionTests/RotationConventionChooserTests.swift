import Foundation
@testable import Motion
import Testing

/// Choosing how to read a hub's quaternion against the accelerometer: every
/// proper relation between the two frames (order × direction × the 24
/// axis-aligned rotations), the ones that agree kept until evidence rules
/// them out.
@Suite(.timeLimit(.minutes(2))) struct RotationConventionChooserTests {
    typealias Convention = RotationQuaternion.Convention
    typealias Matrix = SimulatedHub.Matrix

    static let degree = SimulatedHub.degree

    /// Hubs in several conventions: Windows' own, and others with the
    /// frames turned (about z, about x, about a diagonal, upside down).
    static let conventions: [Convention] = [0, 1, 6, 13, 42, 59, 70, 95].map { Convention.candidates[$0] }

    @Test func everyProperRelationIsACandidate() {
        #expect(AxisRotation.all.count == 24)
        for rotation in AxisRotation.all {
            #expect(rotation.determinant == 1)
            let rows = [rotation.x, rotation.y, rotation.z]
            for i in 0..<3 { for j in 0..<3 { #expect((rows[i] * rows[j]).sum() == (i == j ? 1 : 0)) } }
        }
        #expect(Set(AxisRotation.all.map(\.description)).count == 24)
        #expect(Convention.candidates.count == 96)
        #expect(Set(Convention.candidates.map(\.description)).count == 96)
        #expect(Array(Convention.candidates.prefix(4)) == Convention.readings)
    }

    /// A hand-held wobble from a tilted start: roll, pitch and yaw each
    /// swinging at its own rate, at 100 Hz for `seconds`.
    static func wobble(seconds: Double = 4) -> [Matrix] {
        stride(from: 0.0, to: seconds, by: 0.01).map { t in
            Matrix.attitude(roll: (25 + 20 * sin(2 * .pi * 0.45 * t)) * degree,
                            pitch: (35 + 25 * sin(2 * .pi * 0.3 * t + 1)) * degree,
                            yaw: (40 * sin(2 * .pi * 0.2 * t)) * degree)
        }
    }

    /// Feeds `attitudes` to a chooser as `hub` reports them; returns the
    /// largest error (degrees) of the "up" in use against the truth from
    /// `from` on, and the chooser at the end.
    static func follow(_ hub: SimulatedHub, _ attitudes: [Matrix], from: Int = 0)
        -> (worst: Double, chooser: RotationConventionChooser?) {
        let first = hub.sample(attitudes[0])
        var chooser = RotationConventionChooser(acceleration: first.acceleration, components: first.components)
        var worst = 0.0
        for (index, attitude) in attitudes.enumerated() {
            let sample = hub.sample(attitude)
            if index > 0 { chooser.observe(acceleration: sample.acceleration, components: sample.components) }
            guard let convention = chooser.current else { return (.infinity, nil) }
            if index >= from {
                let up = RotationQuaternion.up(sample.components, convention: convention)
                worst = max(worst, SimulatedHub.degrees(up, SimulatedHub.up(attitude)))
            }
        }
        return (worst, chooser)
    }

    /// Each hub's quaternion is followed within 2° of the true attitude from
    /// its first sample, with a perfect accelerometer and with one mounted
    /// 4° off, and the evidence leaves the hub's own convention.
    @Test(arguments: conventions, [0.0, 4.0])
    func aHubInAnyConventionIsFollowed(truth: Convention, accelerometerOff: Double) throws {
        let hub = SimulatedHub(truth, accelerometerOffDegrees: accelerometerOff)
        let (worst, chooser) = Self.follow(hub, Self.wobble())
        #expect(worst < 2, "\(truth): up off by \(worst)°")
        let end = try #require(chooser)
        #expect(end.isDecided && end.current == truth, "\(truth): left \(end.remaining)")
    }

    /// The same for all 96, with the accelerometer 4° off: after the first
    /// half second every one is followed within 2°.
    @Test func everyConventionIsFollowed() {
        var failures: [String] = []
        for truth in Convention.candidates {
            let (worst, chooser) = Self.follow(SimulatedHub(truth, accelerometerOffDegrees: 4), Self.wobble(), from: 50)
            if worst >= 2 || chooser?.current != truth {
                failures.append("\(truth): \(worst)°, in use \(chooser?.current.map { "\($0)" } ?? "none")")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) not followed: \(failures.prefix(5))")
    }

    /// Flat with some yaw, every frame turned about the vertical (and the
    /// wrong order, and the conjugate) agrees: the choice waits, and the
    /// "up" in use is right meanwhile; a tilt then decides it.
    @Test(arguments: conventions)
    func flatWithSomeYawDefersTheChoiceAndATiltDecidesIt(truth: Convention) {
        let hub = SimulatedHub(truth)
        let flat = Matrix.attitude(roll: 0, pitch: 0, yaw: 8 * Self.degree)
        let start = hub.sample(flat)
        var chooser = RotationConventionChooser(acceleration: start.acceleration, components: start.components)
        #expect(!chooser.isDecided, "flat, many readings agree within 15°: \(chooser.remaining)")
        #expect(chooser.remaining.contains(truth))
        // Still flat: no evidence, nothing decided.
        for _ in 0..<30 { chooser.observe(acceleration: start.acceleration, components: start.components) }
        #expect(!chooser.isDecided)
        if let current = chooser.current {
            #expect(SimulatedHub.degrees(RotationQuaternion.up(start.components, convention: current),
                                         SimulatedHub.up(flat)) < 1e-6)
        }
        // Tilted one way, another, and turned, each held: the up in use is
        // right at every pose, and the others are ruled out.
        for (roll, pitch, yaw) in [(35.0, -20.0, 8.0), (-10.0, 50.0, 8.0), (20.0, 30.0, 70.0)] {
            let attitude = Matrix.attitude(roll: roll * Self.degree, pitch: pitch * Self.degree, yaw: yaw * Self.degree)
            let tilted = hub.sample(attitude)
            for _ in 0..<chooser.evidenceSamples {
                chooser.observe(acceleration: tilted.acceleration, components: tilted.components)
            }
            if let current = chooser.current {
                #expect(SimulatedHub.degrees(RotationQuaternion.up(tilted.components, convention: current),
                                             SimulatedHub.up(attitude)) < 1e-6, "\(current) at \(roll), \(pitch), \(yaw)")
            }
        }
        #expect(chooser.isDecided && chooser.current == truth, "\(chooser.remaining)")
    }

    /// A hand moving the device (|a| far from g), or a few samples that
    /// disagree, rule nothing out.
    @Test func motionAndShortDisagreementsAreNoEvidence() {
        let hub = SimulatedHub(Convention(scalarLast: false, conjugate: false))
        let flat = hub.sample(Matrix.attitude(roll: 0, pitch: 0, yaw: 5 * Self.degree))
        var chooser = RotationConventionChooser(acceleration: flat.acceleration, components: flat.components)
        let before = chooser.remaining
        let tilted = hub.sample(Matrix.attitude(roll: 40 * Self.degree, pitch: 0, yaw: 5 * Self.degree))
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

    @Test func noReadingAgreeingLeavesNothingToUse() {
        // Upright accelerometer; the quaternion a generic turn whose 96
        // readings all lie more than 15° from it.
        let chooser = RotationConventionChooser(acceleration: SIMD3(0, -9.8, 0),
                                                components: SIMD4(0.2, 0.35, 0.1, 0.91))
        #expect(chooser.current == nil)
        #expect(chooser.closestRadians > 15 * Self.degree)
    }
}
