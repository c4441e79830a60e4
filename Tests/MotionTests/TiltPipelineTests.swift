import Foundation
@testable import Motion
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(2))) struct TiltPipelineTests {
    /// 100 Hz readings of a slow roll sweep at pitch 0.4, scaled by `g`.
    static func sweep(g: Double = 9.81, count: Int = 500) -> [Reading] {
        (0..<count).map { i in
            let roll = 0.5 * sin(Double(i) * 0.01)
            return Reading(timestampNanoseconds: Int64(i) * 10_000_000,
                           acceleration: AttitudeSolverTests.vector(roll: roll, pitch: 0.4, g: g))
        }
    }

    @Test func firstSamplePassesAndGateDropsStillness() {
        var pipeline = TiltPipeline()
        let still = Reading(timestampNanoseconds: 0, acceleration: SIMD3(0, 0, 9.81))
        #expect(pipeline.process(still) != nil)
        for i in 1...50 {
            #expect(pipeline.process(Reading(timestampNanoseconds: Int64(i) * 10_000_000,
                                             acceleration: SIMD3(0, 0, 9.81))) == nil)
        }
    }

    @Test func gateDisabledPassesEverySample() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let states = Self.sweep().compactMap { pipeline.process($0) }
        #expect(states.count == 500)
    }

    @Test func gateKeepsEverySignificantChange() {
        var gated = TiltPipeline()
        var ungated = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let readings = Self.sweep()
        let kept = readings.compactMap { gated.process($0) }
        let all = readings.compactMap { ungated.process($0) }
        #expect(kept.count < all.count && kept.count > 10)
        // Between consecutive kept states no dropped state moved ≥ threshold.
        var keptIndex = 0
        for state in all {
            if keptIndex + 1 < kept.count, state.timestampNanoseconds == kept[keptIndex + 1].timestampNanoseconds {
                keptIndex += 1
                continue
            }
            if state.timestampNanoseconds == kept[keptIndex].timestampNanoseconds { continue }
            #expect(abs(state.roll - kept[keptIndex].roll) < ChangeGate.defaultThreshold)
            #expect(abs(state.pitch - kept[keptIndex].pitch) < ChangeGate.defaultThreshold)
        }
    }

    @Test(arguments: [25.0, 250.0, 0.5])
    func wrongScaleGivesTheSameAngles(g: Double) {
        var right = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var wrong = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        for (a, b) in zip(Self.sweep(), Self.sweep(g: g)) {
            let x = right.process(a)!, y = wrong.process(b)!
            #expect(abs(x.roll - y.roll) < 1e-9 && abs(x.pitch - y.pitch) < 1e-9)
        }
    }

    @Test func shakeAndFreeFallDoNotYankTheAngles() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var naive = LowPassFilter()
        let rest = AttitudeSolverTests.vector(roll: 0.2, pitch: 0.3)
        var t: Int64 = 0
        func feed(_ a: SIMD3<Double>) -> (TiltState, SIMD3<Double>) {
            defer { t += 10_000_000 }
            return (pipeline.process(Reading(timestampNanoseconds: t, acceleration: a))!,
                    naive.update(a, timestampNanoseconds: t))
        }
        for _ in 0..<300 { _ = feed(rest) }  // 3 s at rest
        var worst = 0.0, worstNaive = 0.0
        for i in 0..<30 {  // 0.3 s of hard sideways shaking (±3 g)
            let shake = SIMD3<Double>(i % 2 == 0 ? 30 : -30, 0, 0)
            let (state, raw) = feed(rest + shake)
            var solver = AttitudeSolver()
            let naiveAngles = solver.solve(raw)
            worst = max(worst, abs(state.roll - 0.2))
            worstNaive = max(worstNaive, abs(naiveAngles.roll - 0.2))
        }
        for _ in 0..<20 { // 0.2 s free fall
            let (state, _) = feed(SIMD3(0.3, -0.2, 0.1))
            worst = max(worst, abs(state.roll - 0.2), abs(state.pitch - 0.3))
        }
        #expect(worst < 0.1, "robust filter moved \(worst) rad")
        #expect(worstNaive > 3 * worst, "the plain filter moved only \(worstNaive) rad")
        #expect(abs(pipeline.gravityMagnitude - 9.81) < 2)
    }

    @Test func shakeSamplesThatHappenToReadOneGDoNotGetThrough() {
        // A shake where every third sample (from the second on) has exactly
        // |g| but a random direction. (A shake whose very first sample reads
        // |g| cannot be told from a quick real turn: that one sample counts.)
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var generator = SplitMix(seed: 11)
        func random() -> Double { Double(generator.next() % 2_000_001) / 1_000_000 - 1 }
        let rest = AttitudeSolverTests.vector(roll: -0.3, pitch: 0.6)
        var t: Int64 = 0
        var last: TiltState?
        for _ in 0..<300 {
            last = pipeline.process(Reading(timestampNanoseconds: t, acceleration: rest))
            t += 10_000_000
        }
        var worst = 0.0
        for i in 0..<100 {
            var a = SIMD3(random(), random(), random())
            a = i % 3 == 1 ? a / (a * a).sum().squareRoot() * 9.81 : rest + a * 25
            last = pipeline.process(Reading(timestampNanoseconds: t, acceleration: a))
            t += 10_000_000
            worst = max(worst, abs(last!.roll + 0.3), abs(last!.pitch - 0.6))
        }
        #expect(worst < 0.15, "moved \(worst) rad during the shake")
        for _ in 0..<100 {  // 1 s quiet again: back at rest, on the same branch
            last = pipeline.process(Reading(timestampNanoseconds: t, acceleration: rest))
            t += 10_000_000
        }
        #expect(abs(last!.roll + 0.3) < 1e-3 && abs(last!.pitch - 0.6) < 1e-3)
    }

    @Test func diagnosticsAreReported() {
        var pipeline = TiltPipeline()
        _ = pipeline.process(Reading(timestampNanoseconds: 1_000_000_000, acceleration: SIMD3(0, 0, 9.81)))
        _ = pipeline.process(Reading(timestampNanoseconds: 500_000_000, acceleration: SIMD3(0, 0, 9.81)))
        _ = pipeline.process(Reading(timestampNanoseconds: 60_000_000_000, acceleration: SIMD3(0, 0, 9.81)))
        _ = pipeline.process(Reading(timestampNanoseconds: 60_010_000_000, acceleration: SIMD3(.nan, 0, 9.81)))
        let diagnostics = pipeline.takeDiagnostics()
        #expect(diagnostics.map(\.kind) == ["backwards-timestamp", "filter-reset", "invalid-reading"])
        #expect(diagnostics[0].description.contains("1.000000 s to 0.500000 s"))
        #expect(!pipeline.hasDiagnostics)
    }

    @Test func autoScreenOrientationFollowsTheClassifier() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(
            gateEnabled: false, screenOrientation: .auto))
        // Device upright with its left edge up: the screen reads upright.
        let state = pipeline.process(Reading(timestampNanoseconds: 0, acceleration: SIMD3(9.81, 0, 0)))!
        #expect(state.orientation == .leftUp)
        #expect(abs(state.pitch - Double.pi / 2) < 1e-9)
        var fixed = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        let portrait = fixed.process(Reading(timestampNanoseconds: 0, acceleration: SIMD3(9.81, 0, 0)))!
        #expect(portrait.orientation == .leftUp)
        #expect(abs(portrait.roll - Double.pi / 2) < 1e-9)
    }

    @Test func neutralAutoReadsRestAsZero() {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, neutral: .auto))
        let lid = AttitudeSolverTests.vector(roll: 0, pitch: 1.5)
        var last: TiltState?
        for i in 0..<100 {
            last = pipeline.process(Reading(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: lid))
        }
        #expect(abs(last!.roll) < 1e-9 && abs(last!.pitch) < 1e-9)
    }

    @Test func replayIsDeterministic() {
        let readings = Self.sweep()
        var a = TiltPipeline(), b = TiltPipeline()
        #expect(readings.compactMap { a.process($0) } == readings.compactMap { b.process($0) })
    }
}
