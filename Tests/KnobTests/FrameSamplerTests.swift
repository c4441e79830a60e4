@testable import Knob
import Motion
import Testing

/// Frame counts and frame times at the ends of the Int64 clock (regression:
/// a trace from 0 to 9·10¹⁸ ns trapped with "arithmetic overflow").
@Suite(.timeLimit(.minutes(2))) struct FrameSamplerTests {
    static func state(_ ns: Int64) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: ns, roll: 0.1, pitch: 0.2, orientation: .normal))
    }

    @Test func countsFramesOfAnOrdinarySpanExactly() {
        #expect(FrameSampler.frameCount(from: 0, to: 1_000_000_000, framesPerSecond: 60) == 62)
        #expect(FrameSampler.frameCount(from: 5, to: 5, framesPerSecond: 60) == 2)
        // Backwards: nothing to span.
        #expect(FrameSampler.frameCount(from: 10, to: 5, framesPerSecond: 60) == 2)
        // 1.5 s at 10 fps: 15 periods, plus the first frame and one past the end.
        #expect(FrameSampler.frameCount(from: -750_000_000, to: 750_000_000, framesPerSecond: 10) == 17)
    }

    @Test func aSpanOfNineExasecondsDoesNotTrap() {
        // The trace: 0 then 9·10¹⁸ ns at 60 fps is 5.4·10¹¹ frames, counted exactly.
        let count = FrameSampler.frameCount(from: 0, to: 9_000_000_000_000_000_000, framesPerSecond: 60)
        #expect(count == 540_000_000_000 + 2)
        let sampler = FrameSampler(states: [Self.state(0), Self.state(9_000_000_000_000_000_000)])
        #expect(sampler.frameCount == count)
    }

    @Test func theWidestSpanAtTheHighestRateIsCountedWithoutOverflow() {
        // Int64.min to Int64.max: a span of 2⁶⁴ − 1 ns, larger than Int64 itself.
        let count = FrameSampler.frameCount(from: .min, to: .max, framesPerSecond: 1000)
        #expect(count == 18_446_744_073_709 + 2)
        let sampler = FrameSampler(states: [Self.state(.min), Self.state(.max)], framesPerSecond: 1000)
        #expect(sampler.frameCount == count)
        #expect(sampler.timestamp(ofFrame: 0) == .min)
        #expect(sampler.timestamp(ofFrame: 1) == Int64.min + 1_000_000)
    }

    @Test func frameTimesSaturateAtTheEndOfTheClock() {
        let sampler = FrameSampler(states: [Self.state(Int64.max - 10)], framesPerSecond: 60)
        #expect(sampler.frameCount == 2)
        #expect(sampler.timestamp(ofFrame: 0) == Int64.max - 10)
        #expect(sampler.timestamp(ofFrame: 1) == Int64.max)
        #expect(sampler.timestamp(ofFrame: Int.max) == Int64.max)
        var frames: [FrameSampler.Frame] = []
        sampler.forEachFrame { frames.append($0) }
        #expect(frames.map(\.timestampNanoseconds) == [Int64.max - 10, Int64.max])
    }

    @Test func frameTimesOfLargeIndicesAreExact() {
        let sampler = FrameSampler(states: [Self.state(0), Self.state(Int64.max)], framesPerSecond: 7)
        // 10¹⁰ frames at 7 fps: 1428571428 s and 4/7 s.
        #expect(sampler.timestamp(ofFrame: 10_000_000_000) == 1_428_571_428_000_000_000 + 571_428_571)
    }

    /// Found by scripts/fuzz-render.py: a state at Int64.min followed by
    /// ordinary ones trapped in the animator's elapsed-time subtraction.
    @Test func theAnimatorHandlesStatesAtBothEndsOfTheClock() {
        var animator = KnobAnimator(initial: .rest)
        let tilted = Self.state(0).shines
        animator.accept(tilted, atNanoseconds: .min)
        #expect(animator.displayed(atNanoseconds: .max) == tilted)
        #expect(animator.displayed(atNanoseconds: 4_988_819_122) == tilted)
        animator.accept(.rest, atNanoseconds: .max)
        #expect(animator.displayed(atNanoseconds: .min) == tilted)
        let sampler = FrameSampler(states: [Self.state(.min), Self.state(4_988_819_122)], framesPerSecond: 60)
        #expect(sampler.frameCount == 553_402_322_512)
        let near = FrameSampler(states: [Self.state(5_000_000_000), Self.state(.min), Self.state(5_010_000_000)])
        var frames = 0
        near.forEachFrame { _ in frames += 1 }
        #expect(frames == near.frameCount)
    }
}
