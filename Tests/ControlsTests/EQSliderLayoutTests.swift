import Controls
import Testing

/// CONTROLS.md §1's layout checks.
@Suite(.timeLimit(.minutes(2))) struct EQSliderLayoutTests {
    @Test(arguments: [(280.0, 40), (284, 41), (300, 43), (3, 0), (4, 1)])
    func lightCountIsFloorOfWidthPlusThreeOverSeven(width: Double, count: Int) {
        #expect(EQSliderLayout(widthPoints: width).lightCount == count)
    }

    @Test func gapIsMinusThreeAt280Points() {
        #expect(EQSliderLayout(widthPoints: 280).gapPoints == -3)
    }

    /// (50 − 70) / 8 = −2.5: rounded away from zero, not to even.
    @Test func gapRoundsHalfAwayFromZero() {
        let layout = EQSliderLayout(widthPoints: 50)
        #expect(layout.lightCount == 7)
        #expect(layout.gapPoints == -3)
    }

    @Test func gapIsMinusThreeForEveryCountFromFourteen() {
        for width in stride(from: 95.0, through: 2000, by: 1) {
            let layout = EQSliderLayout(widthPoints: width)
            guard layout.lightCount >= 14 else { continue }
            #expect(layout.gapPoints == -3, "W = \(width), N = \(layout.lightCount)")
        }
    }

    @Test func centresAreSevenPointsApartFromTwo() {
        let layout = EQSliderLayout(widthPoints: 280)
        for i in 0..<layout.lightCount {
            #expect(layout.cellCentreX(i) == Double(7 * i + 2))
        }
    }

    @Test func rowsAreEightPointsEitherSideOfTheMiddle() {
        let layout = EQSliderLayout(widthPoints: 280, heightPoints: 44)
        #expect(layout.rowCentreY(.left) == 14)
        #expect(layout.rowCentreY(.right) == 30)
        #expect(layout.cellMinY(.left) == 8)
    }

    @Test(arguments: [(40, [10, 10, 10, 10]), (41, [11, 10, 10, 10])])
    func sectionsSplitTheLightsInIntegers(count: Int, sizes: [Int]) {
        // N = 40 at 280 pt, N = 41 at 284 pt.
        let layout = EQSliderLayout(widthPoints: count == 40 ? 280 : 284)
        #expect(layout.lightCount == count)
        var tally = [0, 0, 0, 0]
        for i in 0..<count { tally[layout.section(i, sections: 4)] += 1 }
        #expect(tally == sizes)
    }
}
