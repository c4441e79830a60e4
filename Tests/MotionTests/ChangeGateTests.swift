@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct ChangeGateTests {
    @Test func firstStateAlwaysPasses() {
        var gate = ChangeGate()
        let result11 = gate.accept(roll: 0.5, pitch: -0.5)
        #expect(result11)
    }

    @Test func exactThresholdPassesJustBelowDoesNot() {
        // 0.25 and 0.5 are exact in binary, so Δ is exactly the threshold.
        var gate = ChangeGate(threshold: 0.25)
        let result12 = gate.accept(roll: 0, pitch: 0)
        #expect(result12)
        let result13 = gate.accept(roll: 0.25.nextDown, pitch: 0)
        #expect(!result13)
        let result14 = gate.accept(roll: 0.25, pitch: 0)
        #expect(result14)
        let result15 = gate.accept(roll: 0.25, pitch: -0.25)
        #expect(result15)
        let result16 = gate.accept(roll: 0.25, pitch: -0.25 - 0.125)
        #expect(!result16)
    }

    @Test func motionAlongOneAxisPasses() {
        // The original's `||` dropped this: only roll moves.
        var gate = ChangeGate()
        let result17 = gate.accept(roll: 0, pitch: 0)
        #expect(result17)
        let result18 = gate.accept(roll: 0.003, pitch: 0)
        #expect(result18)
        let result19 = gate.accept(roll: 0.003, pitch: 0.003)
        #expect(result19)
    }

    @Test func comparesWithLastAcceptedNotLastSeen() {
        var gate = ChangeGate(threshold: 0.0022)
        let result20 = gate.accept(roll: 0, pitch: 0)
        #expect(result20)
        // Creeping by 0.001 per sample: every third step has moved ≥ 0.0022.
        let result21 = gate.accept(roll: 0.001, pitch: 0)
        #expect(!result21)
        let result22 = gate.accept(roll: 0.002, pitch: 0)
        #expect(!result22)
        let result23 = gate.accept(roll: 0.003, pitch: 0)
        #expect(result23)
        let result24 = gate.accept(roll: 0.004, pitch: 0)
        #expect(!result24)
    }

    @Test func thresholdFromKnobRadius() {
        #expect(ChangeGate.threshold(knobRadiusPixels: 24) == 1.0 / 72)
        // The original's constant is a third of a pixel over the 48 px
        // circumference, 1 / (3·π·48), which rounds to the default.
        #expect(abs(1 / (3 * Double.pi * 48) - ChangeGate.defaultThreshold) < 2e-5)
    }
}
