@testable import Devices
import Foundation
import Motion
import Testing

/// The gyro's frame: scale, offset, mount matrix (with the pseudovector's
/// sign under an improper matrix), and where it sits in a shared scan.
@Suite(.timeLimit(.minutes(2))) struct GyroInfoTests {
    static func gyro(_ matrix: MountMatrix, scale: Double = 1, offset: Double = 0) -> GyroInfo {
        GyroInfo(id: "iio:device0", name: "bmi160", pairing: .sameDevice, scale: SIMD3(repeating: scale),
                 offset: SIMD3(repeating: offset), scaleSource: "in_anglvel_scale", mountMatrix: matrix,
                 mountMatrixSource: "test", samplingFrequencyHertz: 100, bufferCapable: true)
    }

    @Test func scaleOffsetAndAProperMatrix() throws {
        let swapped = try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, -1")
        let info = Self.gyro(swapped, scale: 0.5, offset: 2)
        #expect(info.handedness == 1)
        #expect(info.rotationRate(raw: SIMD3(2, 4, 6)) == SIMD3(3, 2, -4))
    }

    /// A driver that reports the acceleration's opposite (−f) needs the
    /// improper matrix −I to read like the others; its gyro, still
    /// right-handed, must then come through unchanged. Scripted readings of a
    /// known rotation, as such a chip gives them, are fused: with
    /// det(M)·M·ω the estimate follows the rotation, with the naive M·ω it
    /// turns the other way.
    @Test func anImproperMatrixTurnsTheGyroAsAPseudovector() throws {
        let flip = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, -1")
        let info = Self.gyro(flip)
        #expect(info.handedness == -1)
        #expect(info.rotationRate(raw: SIMD3(0.1, -0.2, 0.3)) == SIMD3(0.1, -0.2, 0.3))

        func worstError(naive: Bool) -> Double {
            var fusion = AttitudeFusion()
            var worst = 0.0
            for i in 0..<300 {
                let t = Double(i) / 100
                let roll = 0.8 * sin(2 * .pi * 0.5 * t)
                let rollRate = 0.8 * 2 * .pi * 0.5 * cos(2 * .pi * 0.5 * t)
                let up = SIMD3(sin(roll), 0, cos(roll))
                // What the chip gives: −f, and its right-handed body rate (0, −roll', 0).
                let rawAcceleration = -up * 9.81
                let rawRate = SIMD3(0, -rollRate, 0)
                let acceleration = flip.apply(rawAcceleration)
                let rate = naive ? flip.apply(rawRate) : info.rotationRate(raw: rawRate)
                // Shake-like acceleration noise makes the gyro carry the attitude.
                let shaken = acceleration + SIMD3(3 * sin(Double(i) * 1.3), 0, 0)
                if i == 0 {
                    fusion.restart(acceleration: acceleration)
                    continue
                }
                let estimate = fusion.update(acceleration: shaken, rotationRate: rate, intervalSeconds: 0.01)
                // From 0.5 s: the fusion's start-up trusts the accelerometer
                // (τ grows from 0.05 s), so the first shaken samples pull it
                // by up to 3° whichever way the gyro turns.
                if i >= 50 { worst = max(worst, acos(min(1, (estimate * up).sum())) * 180 / .pi) }
            }
            return worst
        }
        #expect(worstError(naive: false) < 2)
        #expect(worstError(naive: true) > 20)
    }

    @Test func gyroAndAccelerometerShareOneScan() {
        // combined-imu.umockdev: anglvel 0-2 and accel 3-5 as le:s16/16, timestamp 6.
        let s16 = ScanElementType(bigEndian: false, signed: true, bits: 16, storageBits: 16, shift: 0)
        let layout = ScanLayout(
            axes: [.init(index: 3, type: s16), .init(index: 4, type: s16), .init(index: 5, type: s16)],
            timestamp: .init(index: 6, type: IIOScanLayoutTests.s64),
            gyro: [.init(index: 0, type: s16), .init(index: 1, type: s16), .init(index: 2, type: s16)])
        #expect(layout.scanBytes == 24)
        #expect(layout.gyroOffsets == SIMD3(0, 2, 4))
        #expect(layout.axisOffsets == SIMD3(6, 8, 10))
        #expect(layout.timestamp?.offset == 16)
        var bytes: [UInt8] = []
        for value in [Int16(-5), 300, 7, 100, -4096, 2] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        bytes += [0, 0, 0, 0]
        withUnsafeBytes(of: Int64(1_000_000_000_000).littleEndian) { bytes += $0 }
        bytes.withUnsafeBytes { buffer in
            #expect(layout.decodeGyro(buffer, at: 0) == SIMD3(-5, 300, 7))
            #expect(layout.decode(buffer, at: 0).raw == SIMD3(100, -4096, 2))
            #expect(layout.decode(buffer, at: 0).timestamp == 1_000_000_000_000)
        }
        let plain = ScanLayout(axes: layout.axisTypes.enumerated().map { .init(index: $0.offset, type: $0.element) },
                               timestamp: nil)
        bytes.withUnsafeBytes { #expect(plain.decodeGyro($0, at: 0) == nil) }
    }

    @Test func fusionRateIsAtLeast100HertzWhereOffered() throws {
        var info = AccelerometerInfo(
            id: "iio:device0", name: "bmi160", label: nil, udevLocation: nil, uri: "local:",
            scale: SIMD3(repeating: 1), offset: .zero, scaleSource: "", offsetSource: "", mountMatrix: .identity,
            mountMatrixSource: .identity, samplingFrequencyHertz: 50,
            availableFrequencies: .list([25, 50, 200, 400]), availableFrequenciesText: nil, bufferCapable: true,
            hasTimestamp: true, currentTrigger: nil, triggerCandidate: nil, timestampClock: nil)
        #expect(CaptureRate.chooseForFusion(requested: nil, info: info) == 200)
        #expect(CaptureRate.chooseForFusion(requested: 50, info: info) == 50)
        info.availableFrequencies = .list([12.5, 26, 52])
        #expect(CaptureRate.chooseForFusion(requested: nil, info: info) == 52)
        info.availableFrequencies = nil
        #expect(CaptureRate.chooseForFusion(requested: nil, info: info) == 100)
        info.samplingFrequencyHertz = 400
        #expect(CaptureRate.chooseForFusion(requested: nil, info: info) == 400)
    }
}
