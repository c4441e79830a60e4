@testable import Devices
import Motion
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(2))) struct PadFamilyTests {
    /// SPEC §3: roll = atan2(nx, nz), pitch = asin(−ny) of the normalised reading.
    static func angles(_ reading: SIMD3<Double>) -> (roll: Double, pitch: Double) {
        let n = reading / (reading * reading).sum().squareRoot()
        return (atan2(n.x, n.z), asin(-n.y))
    }

    /// Specific force (pointing up) in the pad frame for a pad turned by `angle`
    /// about its forward axis (right grip down for positive angles).
    static func rightGripDown(_ angle: Double) -> SIMD3<Double> {
        // Up leans toward the left grip: −x in the pad frame.
        SIMD3(-sin(angle), cos(angle), 0)
    }

    @Test func aPadLyingFaceUpReadsFaceUp() {
        let reading = PadFamily.padFrameMatrix.apply(SIMD3(0, 1, 0))
        #expect(reading == SIMD3(0, 0, 1))
        let angles = Self.angles(reading)
        #expect(angles.roll == 0 && angles.pitch == 0)
    }

    @Test func rightGripDownIsPositiveRoll() {
        let angles = Self.angles(PadFamily.padFrameMatrix.apply(Self.rightGripDown(0.3)))
        #expect(abs(angles.roll - 0.3) < 1e-12)
        #expect(abs(angles.pitch) < 1e-12)
    }

    @Test func standingOnItsGripsReadsUpright() {
        // Grips (toward the player, pad z) pointing down: up is −z in the pad frame.
        let reading = PadFamily.padFrameMatrix.apply(SIMD3(0, 0, -1))
        #expect(reading == SIMD3(0, -1, 0))
        #expect(abs(Self.angles(reading).pitch - Double.pi / 2) < 1e-12)
    }

    @Test func theMatrixIsARotation() {
        let (a, b, c) = PadFamily.padFrameMatrix.rows
        let determinant = a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
        #expect(determinant == 1)
    }

    @Test(arguments: [(0x054C, PadFamily.playstation), (0x057E, .nintendo), (0x28DE, .steam), (0x045E, .other)])
    func vendorsMapToTheirDriverFamily(vendor: Int, family: PadFamily) {
        #expect(PadFamily(vendor: vendor) == family)
    }
}
