import Foundation
@testable import Motion
import Testing

/// Scripted motion through the whole pipeline, with and without the gyro:
/// readings are computed from a known attitude, so every state can be
/// compared with the truth.
@Suite struct GravityFusionTests {
    static let g = 9.81
    static let stepNanoseconds: Int64 = 10_000_000  // 100 Hz

    /// The unit "up" vector of a CoreMotion-style (roll, pitch) in the device frame.
    static func up(roll: Double, pitch: Double) -> SIMD3<Double> {
        SIMD3(cos(pitch) * sin(roll), -sin(pitch), cos(pitch) * cos(roll))
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Readings of a scripted attitude `angles(t)` plus a linear acceleration
    /// `shake(t)` (m/s²); the gyro is the body rate that turns "up" as the
    /// script does: ω = u̇ × u (so that u̇ = u × ω), plus `gyroBias`.
    static func script(seconds: Double, gyroBias: SIMD3<Double> = .zero,
                       angles: (Double) -> (roll: Double, pitch: Double),
                       shake: (Double) -> SIMD3<Double> = { _ in .zero }) -> [(Reading, SIMD3<Double>)] {
        let count = Int(seconds * 100)
        return (0..<count).map { i in
            let t = Double(i) / 100
            let now = angles(t)
            let u = up(roll: now.roll, pitch: now.pitch)
            let h = 1e-5
            let later = angles(t + h), earlier = angles(t - h)
            let derivative = (up(roll: later.roll, pitch: later.pitch) - up(roll: earlier.roll, pitch: earlier.pitch))
                / (2 * h)
            let rate = cross(derivative, u) + gyroBias
            let reading = Reading(timestampNanoseconds: Int64(i) * stepNanoseconds,
                                  acceleration: u * g + shake(t), rotationRate: rate)
            return (reading, u)
        }
    }

    /// The angle in degrees between each state's gravity direction and the truth, from `after` seconds on.
    static func errors(_ samples: [(Reading, SIMD3<Double>)], gyro: Bool, after: Double = 0) -> [Double] {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: gyro))
        return samples.compactMap { reading, truth in
            guard let state = pipeline.process(reading),
                  Double(reading.timestampNanoseconds) * 1e-9 >= after else { return nil }
            let estimate = up(roll: state.roll, pitch: state.pitch)
            return acos(max(-1, min(1, (estimate * truth).sum()))) * 180 / .pi
        }
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    @Test func fusedFollowsAKnownRotationMoreCloselyThanAccelerometerOnly() {
        // A wrist tilting back and forth at 1.5 Hz, ±35°, with the
        // tangential acceleration such a motion brings (phase-shifted).
        let motion = Self.script(seconds: 6, angles: { t in
            (roll: 0.2 * sin(2 * .pi * 0.7 * t), pitch: 0.6 * sin(2 * .pi * 1.5 * t))
        }, shake: { t in SIMD3(0, 3 * cos(2 * .pi * 1.5 * t), 0) })
        // From 3 s: started mid-motion, the fusion averages the acceleration
        // over the time since its start (`AttitudeFusion`), so a sample
        // taken mid-swing weighs for its first seconds.
        let fused = Self.errors(motion, gyro: true, after: 3)
        let accelerometerOnly = Self.errors(motion, gyro: false, after: 3)
        #expect(Self.mean(fused) < 1.5, "fused mean error \(Self.mean(fused))°")
        #expect(Self.mean(fused) * 4 < Self.mean(accelerometerOnly),
                "fused \(Self.mean(fused))° vs accelerometer-only \(Self.mean(accelerometerOnly))°")
        #expect(fused.max()! < accelerometerOnly.max()!)
    }

    @Test func fusedIgnoresAShakeThatAccelerometerOnlyFollows() {
        // Flat and still, then 0.6 s of hard sideways shaking (±1.5 g at
        // 6 Hz) with no rotation, then still again.
        let shaken = Self.script(seconds: 4, angles: { _ in (roll: 0, pitch: 0) }, shake: { t in
            t >= 2 && t < 2.6 ? SIMD3(15 * sin(2 * .pi * 6 * (t - 2)), 4 * sin(2 * .pi * 3 * (t - 2)), 0) : .zero
        })
        let fused = Self.errors(shaken, gyro: true)
        let accelerometerOnly = Self.errors(shaken, gyro: false)
        // The shake leaves the device moving at 0.7 m/s (its accelerations
        // do not sum to zero): what the fusion's average in the inertial
        // frame cannot tell from gravity until it is spread over τ; 2° was
        // 1° with GravityFusion's magnitude rejection, which costs 3–9° on
        // carried devices (docs/motion.md).
        #expect(fused.max()! < 2, "fused peak error \(fused.max()!)°")
        #expect(accelerometerOnly.max()! > 5, "accelerometer-only peak error \(accelerometerOnly.max()!)°")
    }

    @Test func gyroBiasIsLearnedWhileStill() {
        var fusion = GravityFusion()
        let bias = SIMD3(0.02, -0.01, 0.005)
        let still = Self.script(seconds: 12, gyroBias: bias, angles: { _ in (roll: 0.3, pitch: 0.2) })
        fusion.restart(acceleration: still[0].0.acceleration)
        var worst = 0.0
        for (reading, truth) in still.dropFirst() {
            let direction = fusion.update(acceleration: reading.acceleration, rotationRate: reading.rotationRate!,
                                          intervalSeconds: 0.01, weight: 1)
            worst = max(worst, acos(min(1, (direction * truth).sum())) * 180 / .pi)
        }
        let learned = fusion.bias - bias
        #expect((learned * learned).sum().squareRoot() < 0.001, "bias estimate \(fusion.bias)")
        #expect(worst < 1, "worst error \(worst)° while the bias was learned")
    }

    @Test func aLargeUncalibratedBiasIsLearnedAtRest() {
        // 8 °/s on x and −12 °/s on z at rest (an uncalibrated mpu6050 reads
        // such offsets), then a tilt and rest again.
        let bias = SIMD3(8, 0, -12) * (Double.pi / 180)
        let script = Self.script(seconds: 15, gyroBias: bias, angles: { t in
            (roll: t < 5 ? 0.1 : 0.1 + 0.5 * min(1, (t - 5) / 0.5), pitch: 0.3)
        })
        var fusion = GravityFusion()
        fusion.restart(acceleration: script[0].0.acceleration)
        var errors: [Double] = []
        for (reading, truth) in script.dropFirst() {
            let direction = fusion.update(acceleration: reading.acceleration, rotationRate: reading.rotationRate!,
                                          intervalSeconds: 0.01, weight: 1)
            errors.append(acos(min(1, (direction * truth).sum())) * 180 / .pi)
        }
        let learned = fusion.bias - bias
        #expect((learned * learned).sum().squareRoot() < 0.3 * Double.pi / 180, "bias estimate \(fusion.bias)")
        #expect(errors.max()! < 3, "worst error \(errors.max()!)°")
        #expect(errors.suffix(300).max()! < 0.5, "error after the tilt \(errors.suffix(300).max()!)°")
    }

    @Test func startsAtTheFirstSampleAndResetsAfterAGap() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let tilted = Self.up(roll: 0.4, pitch: -0.3) * Self.g
        let first = pipeline.process(Reading(timestampNanoseconds: 0, acceleration: tilted, rotationRate: .zero))
        #expect(abs(first!.roll - 0.4) < 1e-9 && abs(first!.pitch + 0.3) < 1e-9)
        _ = pipeline.process(Reading(timestampNanoseconds: 10_000_000, acceleration: tilted,
                                     rotationRate: SIMD3(3, 0, 0)))
        // After a 2 s gap the estimate starts again from the acceleration,
        // not from where a wild gyro reading left it.
        let other = Self.up(roll: -0.2, pitch: 0.5) * Self.g
        let after = pipeline.process(Reading(timestampNanoseconds: 2_010_000_000, acceleration: other,
                                             rotationRate: .zero))
        #expect(abs(after!.roll + 0.2) < 1e-9 && abs(after!.pitch - 0.5) < 1e-9)
        #expect(pipeline.takeDiagnostics().map(\.kind) == ["filter-reset"])
    }

    @Test func theDirectionStaysAUnitVectorThroughFastMotionShakesAndJitter() {
        // The step rescales v by one Newton step near |v| = 1 (a square root
        // only after a large correction): the length must stay within the
        // stated 4e-7 of 1 on every step, including the start-up ramp.
        let samples = Self.script(seconds: 6, angles: { t in (1.2 * sin(2 * .pi * 1.3 * t), 0.6 * sin(2 * .pi * 0.7 * t)) },
                                  shake: { t in t > 3 && t < 4 ? SIMD3(14 * sin(40 * t), 0, 9 * cos(33 * t)) : .zero })
        var fusion = GravityFusion()
        fusion.restart(acceleration: SIMD3(1, 0, 0))  // far from the truth: large corrections first
        var worst = 0.0
        for (index, (reading, _)) in samples.enumerated() {
            let interval = 0.01 + 0.0004 * sin(Double(index) * 1.7)
            let direction = fusion.update(acceleration: reading.acceleration, rotationRate: reading.rotationRate!,
                                          intervalSeconds: interval, weight: 1)
            worst = max(worst, abs((direction * direction).sum().squareRoot() - 1))
        }
        #expect(worst < 4e-7, "|direction| strayed \(worst) from 1")
    }

    @Test func aLastingDisagreementIsNotRejectedForever() {
        // The gyro "misses" a 40° turn (it reads zero while the device turns
        // within one sample): the accelerometer disagrees by more than the
        // rejection angle, and must win within a few seconds.
        var fusion = GravityFusion()
        let before = Self.up(roll: 0, pitch: 0), after = Self.up(roll: 0.7, pitch: 0)
        fusion.restart(acceleration: before)
        for _ in 0..<200 {
            fusion.update(acceleration: before, rotationRate: .zero, intervalSeconds: 0.01, weight: 1)
        }
        var converged: Int?
        for i in 0..<400 {
            let direction = fusion.update(acceleration: after * Self.g + SIMD3(0, 0.3 * sin(Double(i)), 0),
                                          rotationRate: SIMD3(0.05 * sin(Double(i) * 0.7), 0, 0),
                                          intervalSeconds: 0.01, weight: 1)
            if converged == nil, (direction * after).sum() > cos(2 * Double.pi / 180) { converged = i }
        }
        #expect(converged != nil && converged! < 300, "converged after \(converged.map(String.init) ?? "never") samples")
    }

    @Test func whenTheGyroGoesAwayTheFilterGoesOnFromTheFusedAngles() {
        // Fused through a shake (accelerometer-only would be pulled away),
        // then the gyro is lost mid-shake: the next state continues from the
        // fused angles instead of jumping to a stale low-pass value.
        let shaken = Self.script(seconds: 3, angles: { _ in (roll: 0.3, pitch: 0.2) }, shake: { t in
            t >= 1 ? SIMD3(12 * sin(2 * .pi * 5 * t), 0, 0) : .zero
        })
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var last: TiltState?
        for (index, (reading, _)) in shaken.enumerated() {
            var input = reading
            if index >= 150 { input.rotationRate = nil }
            let state = pipeline.process(input)!
            if index == 150, let last {
                #expect(abs(state.roll - last.roll) < 0.01 && abs(state.pitch - last.pitch) < 0.01,
                        "jumped from \(last) to \(state)")
                #expect(abs(last.roll - 0.3) < 0.02 && abs(last.pitch - 0.2) < 0.02)
            }
            last = state
        }
    }

    @Test func readingsWithoutGyroKeepTheAccelerometerOnlyOutputExactly() {
        let sweep = TiltPipelineTests.sweep()
        var plain = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var ignoring = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: false))
        for reading in sweep {
            var withGyro = reading
            withGyro.rotationRate = SIMD3(0.1, 0.2, 0.3)
            #expect(plain.process(reading) == ignoring.process(withGyro))
        }
    }
}
