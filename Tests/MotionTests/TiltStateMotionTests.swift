import Foundation
@testable import Motion
import Testing

/// `TiltState.motion` lives in a box (`DeviceMotionBox`) so that a state
/// stays small on the accelerometer-only path; the pipeline refills the box
/// of the previous state when nobody holds it. A state must still behave as
/// a value: what it says never changes after it is handed out.
@Suite(.timeLimit(.minutes(2))) struct TiltStateMotionTests {
    /// 100 Hz fused readings turning about x at 0.5 rad/s.
    static func reading(_ i: Int) -> Reading {
        let angle = 0.5 * Double(i) * 0.01
        return Reading(timestampNanoseconds: Int64(i) * 10_000_000,
                       acceleration: SIMD3(0, -9.81 * sin(angle), 9.81 * cos(angle)),
                       rotationRate: SIMD3(0.5, 0, 0))
    }

    @Test func aStateKeepsItsMotionWhileThePipelineGoesOn() throws {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        var kept: [(state: TiltState, motion: DeviceMotion)] = []
        for i in 0..<200 {
            let processed = pipeline.process(Self.reading(i))
            let state = try #require(processed)
            if i % 50 == 49 { kept.append((state, try #require(state.motion))) }
        }
        for (state, motion) in kept { #expect(state.motion == motion) }
        #expect(kept[0].motion.attitude != kept[3].motion.attitude)
    }

    @Test func aDroppedStatesBoxIsRefilledNotReallocated() throws {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        _ = pipeline.process(Self.reading(0))
        weak var box = pipeline.process(Self.reading(1))?.motionBox
        #expect(box != nil)  // kept by the pipeline after the state was dropped
        let nextState = pipeline.process(Self.reading(2))
        let next = try #require(nextState)
        #expect(next.motionBox === box)
        let followingState = pipeline.process(Self.reading(3))
        let following = try #require(followingState)
        #expect(following.motionBox !== next.motionBox)  // `next` still holds its box
        #expect(next.motion != following.motion)
    }

    @Test func changingACopysMotionLeavesTheOriginal() throws {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false))
        _ = pipeline.process(Self.reading(0))
        let processed = pipeline.process(Self.reading(1))
        let state = try #require(processed)
        var copy = state
        copy.motion?.isResting.toggle()
        #expect(copy.motion?.isResting != state.motion?.isResting)
        #expect(copy != state)
        copy.motion = nil
        #expect(copy.motion == nil && state.motion != nil)
        var accelerometerOnly = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: false))
        let plain = accelerometerOnly.process(Self.reading(0))
        #expect(plain != nil && plain?.motion == nil)
    }
}
