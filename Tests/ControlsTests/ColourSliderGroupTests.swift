import Controls
import Testing

/// CONTROLS.md §3's model checks.
@Suite(.timeLimit(.minutes(2))) struct ColourSliderGroupTests {
    static func group(_ c: RGBAColour) -> ColourSliderGroup {
        var group = ColourSliderGroup()
        for k in ColourComponent.allCases { group.addSlider(k) }
        for k in ColourComponent.allCases { group.set(k, to: k.value(in: c)) }
        _ = group.takeReports()
        return group
    }

    @Test func startsOpaqueBlackAndCreatingASliderReports() {
        var group = ColourSliderGroup()
        #expect(group.colour == RGBAColour(red: 0, green: 0, blue: 0, alpha: 1))
        group.addSlider(.alpha)
        group.addSlider(.red)
        #expect(group.takeReports() == [RGBAColour(red: 0, green: 0, blue: 0, alpha: 1),
                                        RGBAColour(red: 0, green: 0, blue: 0, alpha: 1)])
        #expect(group.value(.alpha) == 1 && group.value(.red) == 0)
    }

    @Test func settingReportsTheColourExactlyOnceAndRedrawsEveryTrackInOrder() {
        var group = Self.group(RGBAColour(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        group.set(.green, to: 0.8)
        #expect(group.takeReports() == [RGBAColour(red: 0.2, green: 0.8, blue: 0.6, alpha: 1)])
        #expect(group.redraws == [.red, .green, .blue, .alpha])
        #expect(group.takeReports().isEmpty)
    }

    @Test func valuesAreClamped() {
        var group = Self.group(RGBAColour(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        group.set(.red, to: 1.5)
        group.set(.blue, to: -0.25)
        group.set(.alpha, to: .nan)
        #expect(group.colour == RGBAColour(red: 1, green: 0.4, blue: 0, alpha: 0))
        #expect(group.takeReports().count == 3)
    }

    @Test func aSecondSliderOfAKindReplacesTheFirst() {
        var group = ColourSliderGroup()
        group.addSlider(.blue)
        group.set(.blue, to: 0.7)
        group.addSlider(.blue)
        #expect(group.members == [.blue])
        #expect(group.value(.blue) == 0)  // the new slider's own value
        #expect(group.redraws == [.blue])
    }
}
