@testable import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct ScreenMappingTests {
    @Test(arguments: [
        (SIMD3<Double>(0, -9.81, 0), ScreenOrientation.normal),
        (SIMD3<Double>(0, 9.81, 0), .bottomUp),
        (SIMD3<Double>(9.81, 0, 0), .leftUp),
        (SIMD3<Double>(-9.81, 0, 0), .rightUp),
    ])
    func uprightScreenReadsDown(device: SIMD3<Double>, orientation: ScreenOrientation) {
        #expect(ScreenMapping.map(device, to: orientation) == SIMD3(0, -9.81, 0))
    }

    @Test(arguments: ScreenOrientation.allCases)
    func everyMappingIsAProperRotation(orientation: ScreenOrientation) {
        let x = ScreenMapping.map(SIMD3(1, 0, 0), to: orientation)
        let y = ScreenMapping.map(SIMD3(0, 1, 0), to: orientation)
        let z = ScreenMapping.map(SIMD3(0, 0, 1), to: orientation)
        let determinant = x.x * (y.y * z.z - y.z * z.y) - y.x * (x.y * z.z - x.z * z.y)
            + z.x * (x.y * y.z - x.z * y.y)
        #expect(determinant == 1)
        #expect(z == SIMD3(0, 0, 1))  // a rotation about the screen's normal
    }

    @Test func landscapeTiltIsNotMirrored() {
        // Device held left edge up (screen in left-up landscape), then its
        // screen-right edge dips: in screen terms that is a positive roll, just
        // as the same motion in portrait. The original's (−p, −r) table gave
        // a roll of the opposite sign for one of the two landscape directions.
        let tilt = 0.2
        // Screen frame vector for roll +0.2 at pitch 1.0 …
        let screen = AttitudeSolverTests.vector(roll: tilt, pitch: 1.0)
        // … expressed in the device frame of a left-up device (inverse map).
        let device = SIMD3(-screen.y, screen.x, screen.z)
        var solver = AttitudeSolver()
        let angles = solver.solve(ScreenMapping.map(device, to: .leftUp))
        #expect(abs(angles.roll - tilt) < 1e-12 && abs(angles.pitch - 1.0) < 1e-12)
    }
}
