import Foundation
@testable import Motion
import Testing

/// The 6-axis fusion (`AttitudeFusion`) through the whole pipeline: real
/// hand motion with optical ground truth (BROAD excerpts), scripted shoves
/// and rests, jittered intervals and gaps.
@Suite(.timeLimit(.minutes(2))) struct AttitudeFusionTests {
    typealias Script = MotionScript
    static let g = 9.81

    /// One BROAD excerpt (Tests/Fixtures/README.md): readings, true "up" and the movement flag.
    static func excerpt(_ name: String) throws -> [(Reading, SIMD3<Double>, Bool)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/\(name)").standardizedFileURL
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let v = line.split(separator: ",").map { Double($0)! }
            let reading = Reading(timestampNanoseconds: Int64((v[0] * 1e9).rounded()),
                                  acceleration: SIMD3(v[1], v[2], v[3]), rotationRate: SIMD3(v[4], v[5], v[6]))
            return (reading, SIMD3(v[7], v[8], v[9]), v[10] == 1)
        }
    }

    /// BROAD's score: the RMS of the angle (degrees) between the estimated
    /// and the true up direction over the movement.
    static func inclinationRMSE(_ samples: [(Reading, SIMD3<Double>, Bool)], gyro: Bool) -> Double {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: gyro))
        var sum = 0.0, count = 0
        for (reading, truth, moving) in samples {
            let state = pipeline.process(reading)!
            guard moving else { continue }
            let estimate = Script.up(roll: state.roll, pitch: state.pitch)
            let angle = acos(max(-1, min(1, (estimate * truth).sum()))) * 180 / .pi
            sum += angle * angle
            count += 1
        }
        return (sum / Double(count)).squareRoot()
    }

    /// Measured: 0.43° (translation) and 0.58° (vibration); VQF on the same
    /// excerpts 0.46° and 0.52°. The bound is the goal for any
    /// trial, 2°: three to four times what the filter reaches, a tenth of
    /// what the accelerometer alone makes of the same samples.
    @Test(arguments: ["broad-15-translation.csv", "broad-26-vibration.csv"])
    func inclinationStaysTrueWhileTheDeviceIsCarried(name: String) throws {
        let samples = try Self.excerpt(name)
        #expect(samples.count > 1800 && samples.contains { $0.2 })
        let fused = Self.inclinationRMSE(samples, gyro: true)
        let accelerometerOnly = Self.inclinationRMSE(samples, gyro: false)
        #expect(fused < 2, "fused inclination RMSE \(fused)°")
        #expect(accelerometerOnly > 5 * fused, "accelerometer-only \(accelerometerOnly)° vs fused \(fused)°")
    }

    /// Readings of a still device lying flat with a gyro bias, then a
    /// linear acceleration `push(t)` (in g, along x) from `start`, at `hertz`.
    static func shove(bias: SIMD3<Double>, start: Double, seconds: Double, hertz: Double = 200,
                      push: (Double) -> Double) -> [Reading] {
        var seed: UInt64 = 42
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        return (0..<Int(seconds * hertz)).map { i in
            let t = Double(i) / hertz
            let along = t >= start ? push(t - start) : 0
            return Reading(timestampNanoseconds: Int64((t * 1e9).rounded()),
                           acceleration: SIMD3(along * g + 0.05 * noise(), 0.05 * noise(), g + 0.05 * noise()),
                           rotationRate: bias + 0.003 * SIMD3(noise(), noise(), noise()))
        }
    }

    static func tiltDegrees(_ state: TiltState) -> Double {
        acos(max(-1, min(1, Script.up(roll: state.roll, pitch: state.pitch).z))) * 180 / .pi
    }

    /// Linear accelerations along x, in g, from the shove's start.
    enum Shove: String, CaseIterable, Sendable {
        /// Pushed and stopped: 0.6 g for 0.25 s, then −0.6 g for 0.25 s.
        case pushAndStop
        /// A whole second of 0.6 g back and forth.
        case backAndForth
        /// The worst: 0.6 g for half a second, never taken back.
        case oneWay

        func push(_ t: Double) -> Double {
            switch self {
            case .pushAndStop: t < 0.25 ? 0.6 : (t < 0.5 ? -0.6 : 0)
            case .backAndForth: t < 1 ? 0.6 * sin(2 * .pi * t) : 0
            case .oneWay: t < 0.5 ? 0.6 : 0
            }
        }
    }

    @Test(arguments: Shove.allCases)
    func aShoveOfAStillDeviceDoesNotTiltIt(shove: Shove) {
        let name = shove.rawValue
        let push = shove.push
        let bias = SIMD3(0.5, -0.3, 0.2) * (Double.pi / 180)
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var worst = 0.0
        var restingBefore = false, restingDuring = true
        for reading in Self.shove(bias: bias, start: 10, seconds: 14, push: push) {
            let state = pipeline.process(reading)!
            let t = Double(reading.timestampNanoseconds) * 1e-9
            if t >= 10 { worst = max(worst, Self.tiltDegrees(state)) }
            if t > 9.9 && t < 10 { restingBefore = state.motion?.isResting ?? false }
            if t > 10.2 && t < 10.4 { restingDuring = restingDuring && (state.motion?.isResting ?? true) }
        }
        // The goal; the accelerometer alone tilts by 31° at 0.6 g.
        #expect(worst < 4, "\(name): tilted by \(worst)°")
        #expect(restingBefore, "\(name): a still device is at rest")
        #expect(!restingDuring, "\(name): a shoved device is not")
    }

    @Test(arguments: [SIMD3(0.5, -0.3, 0.2), SIMD3(8, 0, -12)])
    func theBiasIsLearntAtRest(degreesPerSecond: SIMD3<Double>) {
        // A calibrated chip's small bias and an uncalibrated mpu6050's large one.
        let bias = degreesPerSecond * (Double.pi / 180)
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var last: TiltState?
        for reading in Self.shove(bias: bias, start: 100, seconds: 5, push: { _ in 0 }) {
            last = pipeline.process(reading)
        }
        let motion = last!.motion!
        let error = motion.gyroBias - bias
        // 0.05°/s: the rate's noise averaged over the rest; the bias itself is 4–300 times that.
        #expect((error * error).sum().squareRoot() < 0.05 * .pi / 180, "bias \(motion.gyroBias) for \(bias)")
        #expect(motion.isResting)
        let rate = motion.rotationRate
        #expect((rate * rate).sum().squareRoot() < 0.01, "bias-corrected rate \(rate)")
        #expect(Self.tiltDegrees(last!) < 0.5)
    }

    @Test func jitteredIntervalsAreIntegratedAsTheyCame() {
        // A wrist tilting back and forth, sampled at 100 Hz ± 30 %
        // (each timestamp and the rate at that instant): the real Δt must
        // be used, or the turn between samples is wrong.
        var seed: UInt64 = 9
        var t = 0.0
        var samples: [(Reading, SIMD3<Double>)] = []
        let angles = { (t: Double) in (roll: 0.4 * sin(2 * .pi * 0.3 * t), pitch: 0.5 * sin(2 * .pi * 0.5 * t)) }
        while t < 12 {
            // The rate at t itself: u̇ × u (see `MotionScript.script`).
            let h = 1e-5
            let later = angles(t + h), earlier = angles(t - h), now = angles(t)
            let u = Script.up(roll: now.roll, pitch: now.pitch)
            let derivative = (Script.up(roll: later.roll, pitch: later.pitch)
                - Script.up(roll: earlier.roll, pitch: earlier.pitch)) / (2 * h)
            samples.append((Reading(timestampNanoseconds: Int64((t * 1e9).rounded()), acceleration: u * Self.g,
                                    rotationRate: Script.cross(derivative, u)), u))
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            t += 0.01 * (0.7 + 0.6 * Double(seed >> 11) / Double(1 << 53))
        }
        let errors = Script.errors(samples, gyro: true, after: 3)
        #expect(Script.mean(errors) < 0.5, "mean error \(Script.mean(errors))°")
        #expect(errors.max()! < 1.5, "peak error \(errors.max()!)°")
    }

    @Test func aLongGapRestartsFromTheAccelerometer() {
        // Flat for 5 s, then nothing for 2 s while the device was turned to
        // roll 0.8 rad; the first sample after the gap starts over from the
        // accelerometer (the turn in the gap is unknown) and the heading
        // starts afresh.
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let flat = SIMD3(0, 0, Self.g)
        for i in 0..<500 {
            _ = pipeline.process(Reading(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: flat,
                                         rotationRate: .zero))
        }
        let turned = Script.up(roll: 0.8, pitch: 0) * Self.g
        var states: [TiltState] = []
        for i in 0..<300 {
            states.append(pipeline.process(Reading(timestampNanoseconds: 7_000_000_000 + Int64(i) * 10_000_000,
                                                   acceleration: turned, rotationRate: .zero))!)
        }
        #expect(abs(states[0].roll - 0.8) < 0.01, "first state after the gap: roll \(states[0].roll)")
        #expect(states.allSatisfy { abs($0.roll - 0.8) < 0.01 })
        #expect(pipeline.takeDiagnostics().contains { if case .filterReset = $0 { true } else { false } })
        let q = states[0].motion!.attitude
        #expect(abs(q.z) < 1e-7, "a fresh heading: \(q)")
    }

    @Test func repeatedTimestampsAtRestStayFinite() {
        // Δt = 0 (two samples with one timestamp) while at rest, where the
        // bias update divides by Δt: it must be skipped, not turn into NaN.
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var last: TiltState?
        for i in 0..<600 {
            let nanoseconds = Int64(i / 2) * 10_000_000  // every timestamp twice
            last = pipeline.process(Reading(timestampNanoseconds: nanoseconds, acceleration: SIMD3(0, 0, Self.g),
                                            rotationRate: SIMD3(0.01, 0, 0)))
        }
        let motion = last!.motion!
        #expect(motion.isResting)
        #expect((motion.gyroBias * motion.gyroBias).sum().isFinite && (motion.attitude * motion.attitude).sum().isFinite)
        #expect(abs(motion.gyroBias.x - 0.01) < 1e-3)
    }

    @Test func theMotionIsConsistent() {
        // Wherever the device points, gravity is −up, the attitude turns
        // the device's up onto the reference's z, and userAcceleration is
        // what the accelerometer reads beyond gravity.
        let samples = Script.script(seconds: 4, angles: { t in (roll: 0.3 + 0.2 * t, pitch: 0.4 * sin(t)) },
                                    shake: { t in SIMD3(0, 0.2 * Self.g * sin(9 * t), 0) })
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var noGyro = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: false))
        for (reading, truth) in samples {
            let motion = pipeline.process(reading)!.motion!
            #expect(noGyro.process(reading)!.motion == nil)
            let q = motion.attitude
            let up = -motion.gravity
            #expect(abs((q * q).sum() - 1) < 1e-6)  // carried in single precision
            // The third row of q's matrix is the device's view of the reference z.
            let row = SIMD3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
            #expect(((row - up) * (row - up)).sum() < 1e-12)
            // Past the start (the shake's first swing has moved the device off).
            if reading.timestampNanoseconds >= 2_000_000_000 {
                #expect(((up - truth) * (up - truth)).sum().squareRoot() < 0.03)
            }
            let total = up + motion.userAcceleration
            let measured = reading.acceleration * (1 / pipeline.gravityMagnitude)
            #expect(((total - measured) * (total - measured)).sum() < 1e-12)
            let rate = reading.rotationRate! - motion.gyroBias
            #expect(((motion.rotationRate - rate) * (motion.rotationRate - rate)).sum() < 1e-12)
        }
    }

    @Test func fusedFollowsAKnownRotationMoreCloselyThanAccelerometerOnly() {
        // A wrist tilting back and forth at 1.5 Hz, ±35°, with the
        // tangential acceleration such a motion brings (phase-shifted).
        let motion = Script.script(seconds: 6, angles: { t in
            (roll: 0.2 * sin(2 * .pi * 0.7 * t), pitch: 0.6 * sin(2 * .pi * 1.5 * t))
        }, shake: { t in SIMD3(0, 3 * cos(2 * .pi * 1.5 * t), 0) })
        // From 3 s: started mid-motion, the fusion averages the acceleration
        // over the time since its start (`AttitudeFusion`), so a sample
        // taken mid-swing weighs for its first seconds.
        let fused = Script.errors(motion, gyro: true, after: 3)
        let accelerometerOnly = Script.errors(motion, gyro: false, after: 3)
        #expect(Script.mean(fused) < 1.5, "fused mean error \(Script.mean(fused))°")
        #expect(Script.mean(fused) * 4 < Script.mean(accelerometerOnly),
                "fused \(Script.mean(fused))° vs accelerometer-only \(Script.mean(accelerometerOnly))°")
        #expect(fused.max()! < accelerometerOnly.max()!)
    }

    @Test func fusedIgnoresAShakeThatAccelerometerOnlyFollows() {
        // Flat and still, then 0.6 s of hard sideways shaking (±1.5 g at
        // 6 Hz) with no rotation, then still again.
        let shaken = Script.script(seconds: 4, angles: { _ in (roll: 0, pitch: 0) }, shake: { t in
            t >= 2 && t < 2.6 ? SIMD3(15 * sin(2 * .pi * 6 * (t - 2)), 4 * sin(2 * .pi * 3 * (t - 2)), 0) : .zero
        })
        let fused = Script.errors(shaken, gyro: true)
        let accelerometerOnly = Script.errors(shaken, gyro: false)
        // The shake leaves the device moving at 0.7 m/s (its accelerations
        // do not sum to zero): what the fusion's average in the inertial
        // frame cannot tell from gravity until it is spread over τ; 2° was
        // 1° with the filter and its magnitude rejection, which
        // costs 3–9° on carried devices (docs/motion.md).
        #expect(fused.max()! < 2, "fused peak error \(fused.max()!)°")
        #expect(accelerometerOnly.max()! > 5, "accelerometer-only peak error \(accelerometerOnly.max()!)°")
    }

    @Test func startsAtTheFirstSampleAndResetsAfterAGap() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let tilted = Script.up(roll: 0.4, pitch: -0.3) * Self.g
        let first = pipeline.process(Reading(timestampNanoseconds: 0, acceleration: tilted, rotationRate: .zero))
        #expect(abs(first!.roll - 0.4) < 1e-9 && abs(first!.pitch + 0.3) < 1e-9)
        _ = pipeline.process(Reading(timestampNanoseconds: 10_000_000, acceleration: tilted,
                                     rotationRate: SIMD3(3, 0, 0)))
        // After a 2 s gap the estimate starts again from the acceleration,
        // not from where a wild gyro reading left it.
        let other = Script.up(roll: -0.2, pitch: 0.5) * Self.g
        let after = pipeline.process(Reading(timestampNanoseconds: 2_010_000_000, acceleration: other,
                                             rotationRate: .zero))
        #expect(abs(after!.roll + 0.2) < 1e-9 && abs(after!.pitch - 0.5) < 1e-9)
        #expect(pipeline.takeDiagnostics().map(\.kind) == ["filter-reset"])
    }

    @Test func whenTheGyroGoesAwayTheFilterGoesOnFromTheFusedAngles() {
        // Fused through a shake (accelerometer-only would be pulled away),
        // then the gyro is lost mid-shake: the next state continues from the
        // fused angles instead of jumping to a stale low-pass value.
        let shaken = Script.script(seconds: 3, angles: { _ in (roll: 0.3, pitch: 0.2) }, shake: { t in
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

    @Test func aBiasBeingLearntDoesNotTiltAStillTiltedDevice() {
        var fusion = AttitudeFusion()
        let bias = SIMD3(0.02, -0.01, 0.005)
        let still = Script.script(seconds: 12, gyroBias: bias, angles: { _ in (roll: 0.3, pitch: 0.2) })
        fusion.restart(acceleration: still[0].0.acceleration)
        var worst = 0.0
        for (reading, truth) in still.dropFirst() {
            let direction = fusion.update(acceleration: reading.acceleration, rotationRate: reading.rotationRate!,
                                          intervalSeconds: 0.01)
            worst = max(worst, acos(min(1, (direction * truth).sum())) * 180 / .pi)
        }
        let learned = fusion.bias - bias
        #expect((learned * learned).sum().squareRoot() < 0.001, "bias estimate \(fusion.bias)")
        #expect(worst < 1, "worst error \(worst)° while the bias was learned")
    }

    @Test func theDirectionStaysAUnitVectorThroughFastMotionShakesAndJitter() {
        // The quaternions are rescaled by one Newton step near unit length
        // (a square root only far from it): "up" must stay a unit vector on
        // every step, from a start far from the truth on.
        let samples = Script.script(seconds: 6, angles: { t in (1.2 * sin(2 * .pi * 1.3 * t), 0.6 * sin(2 * .pi * 0.7 * t)) },
                                    shake: { t in t > 3 && t < 4 ? SIMD3(14 * sin(40 * t), 0, 9 * cos(33 * t)) : .zero })
        var fusion = AttitudeFusion()
        fusion.restart(acceleration: SIMD3(1, 0, 0))  // far from the truth: large corrections first
        var worst = 0.0
        for (index, (reading, _)) in samples.enumerated() {
            let interval = 0.01 + 0.0004 * sin(Double(index) * 1.7)
            let direction = fusion.update(acceleration: reading.acceleration, rotationRate: reading.rotationRate!,
                                          intervalSeconds: interval)
            worst = max(worst, abs((direction * direction).sum().squareRoot() - 1))
        }
        #expect(worst < 4e-7, "|direction| strayed \(worst) from 1")
    }
}
