import Controls
import Testing

/// CONTROLS.md §1's model checks (N = 40).
@Suite(.timeLimit(.minutes(2))) struct EQSliderModelTests {
    static let n = 40

    @Test func fullValueHalfLevelLightsTwenty() {
        let model = EQSliderModel(value: 1, leftLevel: 0.5, rightLevel: 0.5)
        #expect(model.litCount(.left, lightCount: Self.n) == 20)
        #expect(model.litCount(.right, lightCount: Self.n) == 20)
    }

    @Test func halfValueFullLevelLightsTwenty() {
        let model = EQSliderModel(value: 0.5, leftLevel: 1, rightLevel: 1)
        #expect(model.litCount(.left, lightCount: Self.n) == 20)
    }

    @Test func activeLightsAreLeftOfTheValue() {
        #expect(EQSliderModel(value: 0.5).activeCount(lightCount: Self.n) == 20)
        #expect(EQSliderModel(value: 0.51).activeCount(lightCount: Self.n) == 21)
        #expect(EQSliderModel(value: 0).activeCount(lightCount: Self.n) == 0)
        #expect(EQSliderModel(value: 1).activeCount(lightCount: Self.n) == 40)
    }

    @Test func litLightsAreActiveWhenTheMinimumIsZero() {
        for v in stride(from: 0.0, through: 1, by: 0.01) {
            for level in stride(from: 0.0, through: 1, by: 0.05) {
                let model = EQSliderModel(value: v, leftLevel: level, rightLevel: 1 - level)
                for channel in EQChannel.allCases {
                    for i in 0..<Self.n where model.isLit(i, channel, lightCount: Self.n) {
                        #expect(model.isActive(i, lightCount: Self.n), "v \(v), level \(level), light \(i)")
                    }
                }
            }
        }
    }

    /// The original's quirk: the lit count uses v / vmax, not the fraction
    /// of the range, so with vmin ≠ 0 the two disagree.
    @Test func litCountUsesValueOverMaximumNotTheFraction() {
        let model = EQSliderModel(value: 5, minimumValue: 4, maximumValue: 8, leftLevel: 1, rightLevel: 1)
        #expect(model.fraction == 0.25)
        #expect(model.activeCount(lightCount: Self.n) == 10)
        #expect(model.litCount(.left, lightCount: Self.n) == 25)  // 40 · 1 · 5/8
    }

    @Test func levelsAreClampedToUnit() {
        var model = EQSliderModel(value: 1, leftLevel: 1.7, rightLevel: -2)
        #expect(model.leftLevel == 1 && model.rightLevel == 0)
        model.leftLevel = -0.5
        model.rightLevel = .nan
        #expect(model.leftLevel == 0 && model.rightLevel == 0)
        #expect(EQSliderModel(value: 1).leftLevel == 0.5)  // the default
    }

    @Test func litCountStaysWithinTheRow() {
        let model = EQSliderModel(value: 3, minimumValue: 0, maximumValue: 1, leftLevel: 1, rightLevel: 1)
        #expect(model.litCount(.left, lightCount: Self.n) == 40)
        #expect(EQSliderModel(value: -1, leftLevel: 1).litCount(.left, lightCount: Self.n) == 0)
    }
}
