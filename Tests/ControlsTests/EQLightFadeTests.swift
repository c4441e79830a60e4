import Controls
import Testing

/// The 0.1 s ease-out fade of a light's displayed level σ.
@Suite(.timeLimit(.minutes(2))) struct EQLightFadeTests {
    /// σ of an on-fade sampled at 60 fps, from CONTROLS.md §1.
    static let onFade = [0, 0.2603, 0.4883, 0.6846, 0.8438, 0.9555, 1]

    @Test func onFadeAtSixtyFramesPerSecond() {
        var fade = EQLightFade(settledAt: 0)
        fade.aim(lit: true, atSeconds: 10)
        for (frame, want) in Self.onFade.enumerated() {
            let got = fade.level(atSeconds: 10 + Double(frame) / 60)
            #expect(abs(got - want) < 0.00005, "frame \(frame): σ \(got), want \(want)")
        }
    }

    /// The glow needs σ > 0.5: it first shows on the fourth frame.
    @Test func glowFirstAppearsOnTheFourthFrame() {
        var fade = EQLightFade(settledAt: 0)
        fade.aim(lit: true, atSeconds: 0)
        let first = (0..<7).first { fade.level(atSeconds: Double($0) / 60) > 0.5 }
        #expect(first == 3)
    }

    @Test func anUnchangedTargetDoesNotRestartTheFade() {
        var fade = EQLightFade(settledAt: 0)
        fade.aim(lit: true, atSeconds: 0)
        fade.aim(lit: true, atSeconds: 0.05)
        #expect(fade.startSeconds == 0)
        #expect(fade.level(atSeconds: 0.1) == 1)
    }

    @Test func aFlipMidFadeStartsFromWhatIsShown() {
        var fade = EQLightFade(settledAt: 0)
        fade.aim(lit: true, atSeconds: 0)
        let shown = fade.level(atSeconds: 0.05)
        fade.aim(lit: false, atSeconds: 0.05)
        #expect(fade.level(atSeconds: 0.05) == shown)
        #expect(fade.level(atSeconds: 0.15) == 0)
        #expect(fade.level(atSeconds: 0.1) < shown)
    }

    @Test func animatorFollowsTheModelPerLight() {
        let n = 40
        var animator = EQLightAnimator(lightCount: n)
        animator.update(EQSliderModel(value: 1, leftLevel: 0.5, rightLevel: 0.25), atSeconds: 0)
        let settled = animator.levels(atSeconds: 0.2)
        #expect(settled.left.filter { $0 == 1 }.count == 20)
        #expect(settled.right.filter { $0 == 1 }.count == 10)
        #expect(settled.left[20] == 0)
        let midway = animator.levels(atSeconds: 1.0 / 60)
        #expect(abs(midway.left[0] - 0.2603) < 0.00005)
        let still = EQLightAnimator(lightCount: n, settledOn: EQSliderModel(value: 1, leftLevel: 0.5, rightLevel: 0.25))
        #expect(still.levels(atSeconds: 0) == settled)
    }
}
