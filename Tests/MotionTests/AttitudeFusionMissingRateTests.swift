import Foundation
@testable import Motion
import Testing

/// Samples without a gyro reading in a fused stream (a gyro lagging or
/// stalled, so the capture leaves the rate out): an accelerometer-only step
/// that keeps the fusion's state, not a restart of the filter.
@Suite(.timeLimit(.minutes(2))) struct AttitudeFusionMissingRateTests {
    typealias Script = MotionScript

    /// A wrist tilting back and forth (as in AttitudeFusionTests), every
    /// `every`-th sample's rate left out when `every` > 0.
    static func motion(leavingOutEvery every: Int) -> [(Reading, SIMD3<Double>)] {
        let motion = Script.script(seconds: 6, angles: { t in
            (roll: 0.2 * sin(2 * .pi * 0.7 * t), pitch: 0.6 * sin(2 * .pi * 1.5 * t))
        })
        return motion.enumerated().map { index, sample in
            var reading = sample.0
            if every > 0 && index % every == every - 1 { reading.rotationRate = nil }
            return (reading, sample.1)
        }
    }

    @Test func aFewMissingRatesCostLittleAndDoNotRestartTheFusion() {
        let complete = Script.mean(Script.errors(Self.motion(leavingOutEvery: 0), gyro: true, after: 1))
        let gapped = Script.mean(Script.errors(Self.motion(leavingOutEvery: 4), gyro: true, after: 1))
        let accelerometerOnly = Script.mean(Script.errors(Self.motion(leavingOutEvery: 0), gyro: false, after: 1))
        // Each one-sample gap is bridged with the mean of the rates either
        // side once the next arrives (without bridging, a quarter of the
        // turn is lost and the error is that of the accelerometer alone).
        #expect(gapped < complete + 0.5, "gapped \(gapped)° vs complete \(complete)°")
        #expect(gapped * 3 < accelerometerOnly, "gapped \(gapped)° vs accelerometer-only \(accelerometerOnly)°")
    }

    @Test func correctPullsTowardTheAccelerationWithoutTurningOrLearningBias() {
        var fusion = AttitudeFusion()
        fusion.restart(acceleration: SIMD3(0, 0, 9.81))
        // Past the start with a known bias learned while still, and long
        // enough for the low-pass to settle after it (at 6 s its last 1e-6
        // in y still moves, by about 1e-9 a step).
        let bias = SIMD3(0.02, -0.01, 0.0)
        for _ in 0..<1000 {
            fusion.update(acceleration: SIMD3(0, 0, 9.81), rotationRate: bias, intervalSeconds: 0.01)
        }
        let learned = fusion.bias
        #expect(abs(learned.x - bias.x) < 0.005 && abs(learned.y - bias.y) < 0.005)
        // The device now reads 5° of roll; no gyro readings for 0.2 s.
        let tilted = SIMD3(sin(5 * Double.pi / 180), 0, cos(5 * Double.pi / 180)) * 9.81
        var previous = fusion.direction
        for _ in 0..<20 {
            let next = fusion.correct(acceleration: tilted, intervalSeconds: 0.01)
            #expect(next.x > previous.x, "each step moves toward the measured direction")
            #expect(next.y.magnitude <= previous.y.magnitude + 1e-12, "no turn away from the acceleration")
            previous = next
        }
        #expect(abs((previous * previous).sum() - 1) < 1e-6)
        #expect(fusion.bias == learned, "the bias is the chip's: not learned from samples without a rate")
    }

    /// A twitch on the gyro, then a 0.3 s stall, then readings of 0 on a
    /// still device: the stall is too long to bridge (the turn over it is
    /// unknown), so the twitch's rate is not carried across it.
    @Test func aLongGapIsNotBridgedWithTheRatesEitherSide() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: true))
        let flat = SIMD3(0.0, 0, 9.81)
        var worst = 0.0
        for i in 0..<300 {
            let rate: SIMD3<Double>? = switch i {
            case 150..<153: SIMD3(0, 0.5, 0)
            case 153..<183: nil
            default: .zero
            }
            let reading = Reading(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: flat, rotationRate: rate)
            if let state = pipeline.process(reading) {
                worst = max(worst, abs(state.roll), abs(state.pitch))
            }
        }
        // The three twitch samples turn 0.015 rad at most; bridging the
        // stall with (0.5 + 0) / 2 rad/s would turn 0.075 rad more.
        #expect(worst * 180 / .pi < 1.2, "worst \(worst * 180 / .pi)°")
    }

    /// A gap longer than `bridgeSeconds` (50 ms): from there the pipeline
    /// filters the accelerometer alone, as for a stream without a gyro,
    /// and restarts the fusion when readings return.
    @Test func aLongGapFallsBackToTheAccelerometerFilter() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: true))
        let flat = SIMD3(0.0, 0, 9.81)
        func feed(_ range: Range<Int>, rate: SIMD3<Double>?) {
            for i in range {
                _ = pipeline.process(Reading(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: flat,
                                             rotationRate: rate))
            }
        }
        feed(0..<200, rate: .zero)
        #expect(pipeline.fusing)
        feed(200..<204, rate: nil)
        #expect(pipeline.fusing, "40 ms without rates is bridged")
        feed(204..<206, rate: nil)
        #expect(!pipeline.fusing, "60 ms is not")
        feed(206..<207, rate: .zero)
        #expect(pipeline.fusing)
    }
}
