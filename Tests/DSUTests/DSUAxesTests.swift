import DSU
import Devices
import Foundation
import Motion
import Testing
import TiltdTestSupport

/// The axis mapping checked against the pad fixtures' event streams (what
/// hid-playstation and hid-steam report: x to the right grip, y out of the
/// face, z toward the player), read the way tiltd reads them (resolution,
/// the pad matrix) and mapped to DSU.
///
/// The expected signs come from evdevhook2's src/DeviceTypes.ini, the
/// reference SPEC §16  name: a DualShock 4 is "AccelMapping=x-y-z-"
/// and "GyroMapping=x-y-z-" (DSU axis i = −evdev axis i). So lying flat (the
/// driver reports +1 g on y) a pad reads (0, −1, 0) g; right grip down
/// (a clockwise turn about z, toward the player: ω_z < 0) reads roll > 0.
@Suite(.timeLimit(.minutes(5))) struct DSUAxesTests {
    struct PadSample {
        var seconds: Double
        var accelerationG: SIMD3<Double>  // the driver's frame
        var degreesPerSecond: SIMD3<Double>
    }

    /// Reports of an evemu file: the latest value of each axis at each SYN_REPORT.
    static func reports(_ name: String, accelerationPerG: Double, gyroPerDegree: Double) throws -> [PadSample] {
        let path = TiltdProcess.repositoryRoot.appendingPathComponent("Tests/Fixtures/\(name)").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var axes = [Double](repeating: 0, count: 6)
        var samples: [PadSample] = []
        var first: Double?
        for line in text.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.split(separator: " ")
            let time = fields[1].split(separator: ".")
            let seconds = Double(time[0])! + Double(time[1])! / 1e6
            let (type, code, value) = (Int(fields[2], radix: 16)!, Int(fields[3], radix: 16)!, Double(fields[4])!)
            if type == 3 { axes[code] = value }
            if type == 0 && code == 0 {
                first = first ?? seconds
                samples.append(PadSample(seconds: seconds - first!,
                                         accelerationG: SIMD3(axes[0], axes[1], axes[2]) / accelerationPerG,
                                         degreesPerSecond: SIMD3(axes[3], axes[4], axes[5]) / gyroPerDegree))
            }
        }
        return samples
    }

    /// The DSU motion of a pad sample, through tiltd's reading of it.
    static func dsu(_ sample: PadSample, axes: DSUAxes, matrix: MountMatrix) throws -> DSUMotion {
        let reading = matrix.apply(sample.accelerationG * MotionPadInfo.standardGravity)
        let rate = matrix.applyToAngularVelocity(sample.degreesPerSecond * (.pi / 180))
        return try #require(axes.motion(acceleration: reading, rotationRate: rate, timestampNanoseconds: 0))
    }

    static func mean(_ values: [SIMD3<Float>]) -> SIMD3<Float> {
        values.reduce(.zero, +) / Float(values.count)
    }

    @Test func aDualShock4FlatReadsMinusOneGOnYAndRightGripDownRollsPositive() throws {
        let matrix = PadFamily.playstation.matrix
        let axes = DSUAxes(padVendor: 0x054C, product: 0x09CC, matrix: matrix)
        let samples = try Self.reports("ds4-motion.events", accelerationPerG: 8192, gyroPerDegree: 1024)
        let motions = try samples.map { try Self.dsu($0, axes: axes, matrix: matrix) }
        // Flat for the first 0.5 s.
        let pairs: [(PadSample, DSUMotion)] = Array(zip(samples, motions))
        let flat = Self.mean(pairs.filter { $0.0.seconds < 0.45 }.map { $0.1.accelerationG })
        #expect(farthest(flat, SIMD3(0, -1, 0)) < 0.01)
        // 0.5–1.0 s: right grip down to roll 0.5 rad.
        let rolling: [DSUMotion] = pairs.filter { $0.0.seconds > 0.55 && $0.0.seconds < 0.95 }.map { $0.1 }
        let rate: SIMD3<Float> = Self.mean(rolling.map { $0.rotationDegreesPerSecond })
        #expect(rate.z > 50)  // 0.5 rad in 0.5 s ≈ 57 °/s
        #expect(abs(rate.x) < 1 && abs(rate.y) < 1)
        // Held at roll 0.5: x = +sin 0.5 (the driver's −sin 0.5, negated).
        let held = try #require(pairs.first { $0.0.seconds > 1.1 }?.1)
        let heldExpected = SIMD3<Float>(Float(sin(0.5)), Float(-cos(0.5)), 0)
        #expect(farthest(held.accelerationG, heldExpected) < 0.01)
        // 1.6–2.1 s: the far edge raised to pitch 0.6 while the roll goes back:
        // the driver's ω_x > 0 (y turns toward z), so pitch < 0.
        let pitching: [DSUMotion] = pairs.filter { $0.0.seconds > 1.65 && $0.0.seconds < 2.05 }.map { $0.1 }
        #expect(Self.mean(pitching.map(\.rotationDegreesPerSecond)).x < -30)
        let last = try #require(motions.last)
        let lastExpected = SIMD3<Float>(0, Float(-cos(0.6)), Float(sin(0.6)))
        #expect(farthest(last.accelerationG, lastExpected) < 0.01)
    }

    @Test func theScreenFrameIsTheDualShock4sWithTheScreenAsItsFace() throws {
        let screen = DSUAxes.screen
        // Face up: tiltd reads +1 g on z.
        let flat = try #require(screen.motion(acceleration: SIMD3(0, 0, 9.80665), rotationRate: SIMD3(0.1, 0.2, 0.3),
                                              timestampNanoseconds: 5_000_000))
        #expect(flat.accelerationG == SIMD3(0, -1, 0))
        #expect(flat.timestampMicroseconds == 5_000)
        let degrees = SIMD3<Float>(0.1, -0.3, -0.2) * Float(180 / Double.pi)
        #expect(farthest(flat.rotationDegreesPerSecond, degrees) < 1e-4)
        // The same as a DualShock 4 through its pad matrix.
        let pad = DSUAxes(padVendor: 0x054C, product: 0x05C4, matrix: PadFamily.padFrameMatrix)
        #expect(pad.acceleration == screen.acceleration && pad.rotation == screen.rotation)
    }

    @Test func aSteamDeckMapsAsTheDualShock4() throws {
        let matrix = PadFamily.steam.matrix
        let axes = DSUAxes(padVendor: 0x28DE, product: 0x1205, matrix: matrix)
        let samples = try Self.reports("deck-motion.events", accelerationPerG: 16384, gyroPerDegree: 16)
        let motions = try samples.map { try Self.dsu($0, axes: axes, matrix: matrix) }
        let first = try #require(motions.first)
        #expect(farthest(first.accelerationG, SIMD3(0, -1, 0)) < 0.01)
        // 0.3–0.8 s: left grip down (roll −0.4 rad): roll < 0.
        let deckPairs: [(PadSample, DSUMotion)] = Array(zip(samples, motions))
        let rolling: [DSUMotion] = deckPairs.filter { $0.0.seconds > 0.35 && $0.0.seconds < 0.75 }.map { $0.1 }
        #expect(Self.mean(rolling.map(\.rotationDegreesPerSecond)).z < -30)
    }

    @Test func evdevhook2sOtherTables() {
        // DualSense: the gyroscope's x kept.
        let dualSense = DSUAxes(padVendor: 0x054C, product: 0x0CE6, matrix: .identity)
        #expect(dualSense.rotation == DSUAxes.Matrix(SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)))
        #expect(dualSense.acceleration == DSUAxes.Matrix(SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)))
        // Switch Pro: y+z-x+, gyro y-z-x+ scaled 0.858.
        let pro = DSUAxes(padVendor: 0x057E, product: 0x2009, matrix: .identity)
        #expect(pro.acceleration == DSUAxes.Matrix(SIMD3(0, 1, 0), SIMD3(0, 0, -1), SIMD3(1, 0, 0)))
        #expect(pro.rotation == DSUAxes.Matrix(SIMD3(0, -0.858, 0), SIMD3(0, 0, -0.858), SIMD3(0.858, 0, 0)))
    }

    @Test func aSampleThatIsNotFiniteSendsNothing() {
        #expect(DSUAxes.screen.motion(acceleration: SIMD3(.nan, 0, 0), rotationRate: nil, timestampNanoseconds: 0) == nil)
    }
}
