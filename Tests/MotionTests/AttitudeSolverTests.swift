import Foundation
@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct AttitudeSolverTests {
    /// Gravity direction for a CoreMotion attitude: Ry(roll)·Rx(pitch)·ẑ.
    static func vector(roll: Double, pitch: Double, g: Double = 9.81) -> SIMD3<Double> {
        SIMD3(cos(pitch) * sin(roll), -sin(pitch), cos(pitch) * cos(roll)) * g
    }

    @Test func conventions() {
        var solver = AttitudeSolver()
        let flat = solver.solve(SIMD3(0, 0, 9.81))
        #expect(flat.roll == 0 && flat.pitch == 0)
        var upright = AttitudeSolver()
        #expect(abs(upright.solve(SIMD3(0, -9.81, 0)).pitch - Double.pi / 2) < 1e-12)
        var leftUp = AttitudeSolver()
        // Left edge up (x > 0) is a positive roll.
        #expect(leftUp.solve(SIMD3(9.81 * sin(0.3), 0, 9.81 * cos(0.3))).roll > 0.299)
        var solver2 = AttitudeSolver()
        let angles = solver2.solve(Self.vector(roll: 0.3, pitch: 0.1))
        #expect(abs(angles.roll - 0.3) < 1e-12 && abs(angles.pitch - 0.1) < 1e-12)
    }

    @Test func sweepOverTheTopHasNoJump() {
        // Pitch 0 → 3 rad with a little roll: past upright onto the back.
        var solver = AttitudeSolver()
        var previous = solver.solve(Self.vector(roll: 0.2, pitch: 0))
        for step in 1...300 {
            let pitch = Double(step) * 0.01
            let angles = solver.solve(Self.vector(roll: 0.2, pitch: pitch))
            #expect(abs(angles.pitch - previous.pitch) < 0.05, "pitch jump at \(pitch)")
            #expect(abs(angles.roll - previous.roll) < 0.05, "roll jump at \(pitch)")
            previous = angles
        }
        #expect(abs(previous.pitch - 3) < 1e-9)
        #expect(abs(previous.roll - 0.2) < 1e-9)
    }

    @Test func sweepThroughFaceDownHasNoJump() {
        // Roll 0 → 7 rad: through face-down and all the way round again.
        var solver = AttitudeSolver()
        var previous = solver.solve(Self.vector(roll: 0, pitch: 0.3))
        for step in 1...700 {
            let roll = Double(step) * 0.01
            let angles = solver.solve(Self.vector(roll: roll, pitch: 0.3))
            #expect(abs(angles.roll - previous.roll) < 0.05, "roll jump at \(roll)")
            #expect(abs(angles.pitch - previous.pitch) < 0.05, "pitch jump at \(roll)")
            previous = angles
        }
        #expect(abs(previous.roll - 7) < 1e-9)
        #expect(abs(previous.pitch - 0.3) < 1e-9)
    }

    @Test func rollIsHeldWhereUndefined() {
        var solver = AttitudeSolver()
        _ = solver.solve(Self.vector(roll: 0.4, pitch: 1.2))
        let upright = solver.solve(SIMD3(0.001, -9.81, 0.0001))
        #expect(abs(upright.roll - 0.4) < 1e-12)
        #expect(abs(upright.pitch - Double.pi / 2) < 1e-3)
    }

    @Test func firstStateUsesPrincipalValues() {
        var solver = AttitudeSolver()
        // Face down, a bit pitched: principal pitch stays within ±π/2.
        let angles = solver.solve(Self.vector(roll: Double.pi, pitch: 0.2))
        #expect(abs(angles.pitch) <= Double.pi / 2)
        #expect(abs(abs(angles.roll) - Double.pi) < 1e-9)
    }

    @Test func zeroVectorHoldsBoth() {
        var solver = AttitudeSolver()
        _ = solver.solve(Self.vector(roll: 0.1, pitch: 0.2))
        let held = solver.solve(.zero)
        #expect(abs(held.roll - 0.1) < 1e-12 && abs(held.pitch - 0.2) < 1e-12)
    }
}
