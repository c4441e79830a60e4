@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct ShineModelTests {
    /// Tolerance for values computed by one or two floating-point operations.
    let tolerance = 1e-12

    @Test func restIsUnturnedAndOpaque() {
        #expect(ShinePair(roll: 0, pitch: 0) == .rest)
    }

    @Test func worked_roll03_pitch01() {
        let s = ShinePair(roll: 0.3, pitch: 0.1)
        #expect(abs(s.first.rotation - -0.2) < tolerance)
        #expect(s.first.opacity == 1.0)
        #expect(abs(s.second.rotation - -0.4) < tolerance)
        #expect(abs(s.second.opacity - 0.7) < tolerance)
    }

    @Test func rollMinusOneFadesFirstShineOut() {
        let s = ShinePair(roll: -1, pitch: 0)
        #expect(s.first.opacity == 0)
        #expect(s.second.opacity == 1)
    }

    @Test func opacitiesAreClamped() {
        let s = ShinePair(roll: 2.5, pitch: -0.4)
        #expect(s.first.opacity == 1)
        #expect(s.second.opacity == 0)
    }
}
