import Foundation
@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct NeutralPoseTests {
    @Test func restPoseReadsFaceUp() {
        for (roll, pitch) in [(0.0, Double.pi / 2), (0.3, 0.1), (-1.0, 1.2), (2.5, -0.4)] {
            var neutral = NeutralPose(setting: .fixed(roll: roll, pitch: pitch))
            let rotated = neutral.apply(AttitudeSolverTests.vector(roll: roll, pitch: pitch),
                                        timestampNanoseconds: 0)
            #expect(abs(rotated.x) < 1e-12 && abs(rotated.y) < 1e-12, "(\(roll), \(pitch))")
            #expect(abs(rotated.z - 9.81) < 1e-12)
        }
    }

    @Test func laptopLidTiltedBackReadsAsPitch() {
        var neutral = NeutralPose(setting: .fixed(roll: 0, pitch: Double.pi / 2))
        var solver = AttitudeSolver()
        let lid = AttitudeSolverTests.vector(roll: 0, pitch: Double.pi / 2 + 0.1)
        let angles = solver.solve(neutral.apply(lid, timestampNanoseconds: 0))
        #expect(abs(angles.pitch - 0.1) < 1e-12 && abs(angles.roll) < 1e-12)
    }

    @Test func rollNearUprightIsWellDefinedFromTheLid() {
        // Upright, roll is ill-conditioned; from an upright rest pose, a turn
        // of the lid about the screen's normal reads as a clean roll.
        var neutral = NeutralPose(setting: .fixed(roll: 0, pitch: Double.pi / 2))
        var solver = AttitudeSolver()
        let turned = SIMD3(9.81 * sin(0.2), -9.81 * cos(0.2), 0)
        let angles = solver.solve(neutral.apply(turned, timestampNanoseconds: 0))
        #expect(abs(angles.roll - 0.2) < 1e-12 && abs(angles.pitch) < 1e-12)
    }

    @Test func autoTakesTheMeanOfTheFirstHalfSecond() {
        var neutral = NeutralPose(setting: .auto)
        let rest = AttitudeSolverTests.vector(roll: 0.1, pitch: 1.3)
        var t: Int64 = 0
        while t < 600_000_000 {
            _ = neutral.apply(rest, timestampNanoseconds: t)
            t += 10_000_000
        }
        #expect(neutral.isSettled)
        let pose = neutral.restPose!
        #expect(abs(pose.roll - 0.1) < 1e-9 && abs(pose.pitch - 1.3) < 1e-9)
        // After the window, later motion no longer moves the rest pose.
        let moved = neutral.apply(AttitudeSolverTests.vector(roll: 0.5, pitch: 0.2), timestampNanoseconds: t)
        #expect(abs(neutral.restPose!.roll - 0.1) < 1e-9)
        #expect(moved.z < 9.81 - 0.1)
    }

    @Test func noneLeavesTheVector() {
        var neutral = NeutralPose(setting: .none)
        #expect(neutral.apply(SIMD3(1, 2, 3), timestampNanoseconds: 0) == SIMD3(1, 2, 3))
        #expect(neutral.restPose == nil)
    }
}
