@testable import Knob
import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct KnobAnimatorTests {
    let duration: Int64 = 8_333_333  // 1/120 s
    let tolerance = 1e-9

    static func shines(_ rotation: Double, _ opacity: Double = 1) -> ShinePair {
        ShinePair(first: Shine(rotation: rotation, opacity: opacity), second: Shine(rotation: -rotation, opacity: opacity))
    }

    @Test func easeInEaseOutIsCoreAnimationsCurve() {
        let c = TimingCurve.easeInEaseOut
        #expect(c == TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
        #expect(abs(c.progress(0.5) - 0.5) < 1e-9)      // symmetric
        #expect(c.progress(0.25) < 0.25 && c.progress(0.75) > 0.75)  // slow in, slow out
        #expect(c.progress(0) == 0 && c.progress(1) == 1)
        #expect(abs(TimingCurve.linear.progress(0.3) - 0.3) < 1e-9)
    }

    @Test func reachesTheTargetAfterOneTwentiethOfASecond() {
        var a = KnobAnimator()
        #expect(a.durationNanoseconds == duration)
        a.accept(Self.shines(0.5), atNanoseconds: 1_000)
        #expect(a.displayed(atNanoseconds: 1_000) == .rest)
        let mid = a.displayed(atNanoseconds: 1_000 + duration / 2).first.rotation
        #expect(abs(mid - 0.25) < 1e-6)
        #expect(a.displayed(atNanoseconds: 1_000 + duration) == Self.shines(0.5))
    }

    /// A new state mid-animation starts from what is on screen, never from
    /// the old target or the old start.
    @Test func newStateStartsFromWhatIsDisplayed() {
        var a = KnobAnimator()
        a.accept(Self.shines(1.0), atNanoseconds: 0)
        let t = duration / 4
        let shown = a.displayed(atNanoseconds: t)
        #expect(shown.first.rotation > 0 && shown.first.rotation < 1)
        a.accept(Self.shines(-1.0), atNanoseconds: t)
        #expect(abs(a.displayed(atNanoseconds: t).first.rotation - shown.first.rotation) < tolerance)
        // Moving monotonically from there toward the new target.
        let later = a.displayed(atNanoseconds: t + duration / 2).first.rotation
        #expect(later < shown.first.rotation && later > -1)
        #expect(a.displayed(atNanoseconds: t + duration) == Self.shines(-1.0))
    }

    static func state(_ ns: Int64, roll: Double) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: ns, roll: roll, pitch: 0, orientation: .normal))
    }

    @Test func samplerYieldsOneFramePerTickDeterministically() {
        // States every 20 ms (50 Hz) for one second.
        let states = (0...50).map { Self.state(Int64($0) * 20_000_000, roll: Double($0) / 100) }
        let sampler = FrameSampler(states: states, framesPerSecond: 60)
        #expect(sampler.frameCount == 62)
        var first: [FrameSampler.Frame] = [], second: [FrameSampler.Frame] = []
        sampler.forEachFrame { first.append($0) }
        sampler.forEachFrame { second.append($0) }
        #expect(first == second)
        #expect(first.map(\.index) == Array(0..<62))
        #expect(first[60].timestampNanoseconds == 1_000_000_000)
        #expect(first[0].shines == states[0].shines)  // starts on the first state
        #expect(first[61].shines == states[50].shines)
        // Frame 3 at 50 ms: the 40 ms state's animation (8.3 ms) has ended.
        #expect(first[3].latest == states[2])
        #expect(first[3].shines == states[2].shines)
    }
}
